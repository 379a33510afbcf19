// A controller author brings their own controller: picks its Go files (or
// pastes them), reads what was taken, runs it, and reads its numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, open, shot, root } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const fixtures = path.join(root, 'crates', 'workqueue-go', 'tests', 'fixtures');

test('an operator picked as files opens as its run, and its summary has numbers', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.click('[data-testid="bring-controller"]');
  const dir = path.join(fixtures, 'operator');
  await page.setInputFiles('[data-testid="import-files"]', fs.readdirSync(dir).map((f) => path.join(dir, f)));
  await page.waitForSelector('text=3 file(s)');
  await page.click('[data-testid="import-read"]');
  await page.waitForSelector('[data-testid="import-result"]', { timeout: 30000 });
  const taken = await page.textContent('[data-testid="import-taken"]');
  assert.match(taken, /main\.go:17: flag --kube-api-qps: its default, 20/);
  assert.match(taken, /MaxConcurrentReconciles 4/);
  assert.match(await page.textContent('[data-testid="import-unread"]'), /UsePriorityQueue is not set/);
  // What the code does not say: the author's own figures.
  await page.fill('[data-testid="import-objects"]', '60');
  // An outage that does not start at 0, typed backwards first.
  await page.fill('[data-testid="import-outage"]', '80s..20s');
  assert.match(await page.textContent('[data-testid="import-assume-error"]'), /^An outage: .*ends before it starts/);
  assert.ok(await page.isDisabled('[data-testid="import-open"]'));
  await page.fill('[data-testid="import-outage"]', '20s..80s');
  // What each reconcile writes: a status update, and a Secret it creates.
  for (const i of [0, 1]) {
    await page.fill(`[data-testid="import-own-writes-${i}"]`, '1');
    await page.fill(`[data-testid="import-other-writes-${i}"]`, 'Secret 1');
  }
  // The first controller's failing reconcile still creates its Secret (but
  // sends no status update); the second's sends everything.
  await page.fill('[data-testid="import-failure-writes-0"]', 'Secret 1');
  await shot(page, 'import-operator');
  await page.click('[data-testid="import-open"]');
  await page.waitForSelector('[data-stage][data-manager]');
  assert.equal(await page.locator('[data-testid="controller"]').count(), 2);
  assert.match(await page.textContent('[data-testid="shared-client"]'), /20 qps, burst 30/);
  await page.waitForTimeout(1500);
  await page.click('[data-testid="tab-metrics"]');
  await page.waitForFunction(() => /of 120/.test(document.querySelector('[data-summary="converged"]')?.textContent ?? ''));
  // Requests by kind: each controller's own kind, and the Secrets both write.
  const requests = await page.locator('[data-summary="requests"]').allTextContents();
  const kinds = await page.locator('tr:has([data-summary="requests"]) th').allTextContents();
  assert.ok(kinds.some((k) => /API requests, Secret/.test(k)), kinds.join(' | '));
  assert.equal(kinds.length, 3, kinds.join(' | '));
  assert.ok(requests.every((r) => /^[\d,]+ \([\d.]+\/s\)$/.test(r)), requests.join(' | '));
  // The author's whole question: each kind's peak rate, and what held the run back.
  const peaks = await page.locator('[data-summary="peak"]').allTextContents();
  assert.equal(peaks.length, requests.length, peaks.join(' | '));
  assert.ok(peaks.every((p) => /^[\d.]+\/s at \S+$/.test(p)), peaks.join(' | '));
  assert.match(await page.textContent('[data-summary="held-back"]'), /^[^:]+: .+/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download"]')]);
  const run = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  for (const c of run.scenario.controllers) {
    assert.deepEqual(c.writes, { Secret: 1 });
    assert.equal(c.requests_per_reconcile, 1);
    assert.equal(c.errors_write_nothing ?? false, false);
    assert.equal(c.sources[0].count, 60);
    assert.deepEqual(c.default_script, { type: 'outage', from_ns: 20e9, until_ns: 80e9, otherwise: { kind: 'success' } });
  }
  assert.deepEqual(run.scenario.controllers[0].failure_writes, { Secret: 1 });
  assert.equal(run.scenario.controllers[1].failure_writes ?? null, null);
  await shot(page, 'import-operator-run');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a main.go pasted into the dialog opens as its run, with its workers, limiter and client limit, and the summary has its numbers', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.click('[data-testid="bring-controller"]');
  const main = [
    'package main',
    '',
    'import (',
    '\t"time"',
    '',
    '\t"golang.org/x/time/rate"',
    '\t"k8s.io/client-go/util/workqueue"',
    '\tctrl "sigs.k8s.io/controller-runtime"',
    '\t"sigs.k8s.io/controller-runtime/pkg/controller"',
    '\t"sigs.k8s.io/controller-runtime/pkg/reconcile"',
    ')',
    '',
    'func main() {',
    '\tcfg := ctrl.GetConfigOrDie()',
    '\tcfg.QPS = 15',
    '\tcfg.Burst = 25',
    '\tmgr, _ := ctrl.NewManager(cfg, ctrl.Options{})',
    '\tlimiter := workqueue.NewTypedMaxOfRateLimiter(',
    '\t\tworkqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](10*time.Millisecond, 5*time.Minute),',
    '\t\t&workqueue.TypedBucketRateLimiter[reconcile.Request]{Limiter: rate.NewLimiter(rate.Limit(20), 50)},',
    '\t)',
    '\t_ = ctrl.NewControllerManagedBy(mgr).',
    '\t\tFor(&v1.Widget{}).',
    '\t\tWithOptions(controller.Options{MaxConcurrentReconciles: 3, RateLimiter: limiter}).',
    '\t\tComplete(r)',
    '}',
    '',
  ].join('\n');
  await page.fill('[data-testid="import-go"]', main);
  await page.click('[data-testid="import-read"]');
  await page.waitForSelector('[data-testid="import-result"]', { timeout: 30000 });
  const taken = await page.textContent('[data-testid="import-taken"]');
  assert.match(taken, /pasted\.go:15: rest\.Config\.QPS 15, Burst 25|rest\.Config\.QPS 15, Burst 25/);
  assert.match(taken, /MaxConcurrentReconciles 3/);
  await page.fill('[data-testid="import-objects"]', '80');
  await page.click('[data-testid="import-open"]');
  await page.waitForSelector('[data-stage]');
  await page.click('[data-testid="tab-metrics"]');
  await page.waitForFunction(() => /of 80/.test(document.querySelector('[data-summary="converged"]')?.textContent ?? ''), null, { timeout: 30000 });
  await page.waitForFunction(() => /^80 of 80/.test(document.querySelector('[data-summary="converged"]')?.textContent ?? ''), null, { timeout: 60000 });
  assert.match(await page.textContent('[data-summary="time-to-converge"]'), /\d/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download"]')]);
  const run = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  const c = run.scenario.controllers[0];
  assert.equal(c.controller.workers, 3);
  assert.deepEqual(run.scenario.client, { qps: 15, burst: 25 });
  assert.equal(c.limiter.type, 'max_of');
  assert.deepEqual(c.limiter.limiters.map((l) => l.type), ['exponential', 'bucket']);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('pasted Go that does not parse is refused with its line; the run is kept', async () => {
  const { page, context, problems } = await open(browser, url);
  const clock = await page.textContent('[data-testid="clock"]');
  await page.click('[data-testid="bring-controller"]');
  await page.fill('[data-testid="import-go"]', 'package main\n\nfunc main() {\n\tx := (1 +\n}\n');
  await page.click('[data-testid="import-read"]');
  await page.waitForSelector('[data-testid="import-error"]', { timeout: 30000 });
  assert.match(await page.textContent('[data-testid="import-error"]'), /pasted\.go: line 4: not Go this reader can parse/);
  await page.fill('[data-testid="import-go"]', 'package main\n\nfunc main() {}\n');
  await page.click('[data-testid="import-read"]');
  await page.waitForFunction(() => /no controller found/.test(document.querySelector('[data-testid="import-error"]')?.textContent ?? ''));
  await page.keyboard.press('Escape');
  assert.equal(await page.textContent('[data-testid="clock"]'), clock);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('hostile Go is refused at once with its file, line and limit; the worker survives and a lesson opens next', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.click('[data-testid="bring-controller"]');
  const helpers = ['package main', '', 'func h25() int { return 1 }'];
  for (let i = 24; i >= 0; i--) helpers.push(`func h${i}() int { return ${Array(4).fill(`h${i + 1}()`).join(' + ')} }`);
  helpers.push('', 'var workers = h0()');
  const cases = [
    // Operators, terms, selectors and calls thousands deep: the old reader's stack.
    [`package main\n\nvar x = ${'^'.repeat(2000)}1\n`, /pasted\.go: line 3: .*nested too deep.*200/],
    [`package main\n\nvar x = 1${'+1'.repeat(5000)}\n`, /pasted\.go: line 3: .*nested too deep.*200/],
    [`package main\n\nvar x = a${'.b'.repeat(5000)}\n`, /pasted\.go: line 3: .*nested too deep.*200/],
    [`package main\n\nvar x = f${'()'.repeat(5000)}\n`, /pasted\.go: line 3: .*nested too deep.*200/],
    // Helpers calling each other 4^25 times: the evaluation budget.
    [helpers.join('\n') + '\n', /pasted\.go: line 30: .*budget of 1000000 evaluation steps/],
  ];
  for (const [go, said] of cases) {
    await page.fill('[data-testid="import-go"]', go);
    const start = Date.now();
    await page.click('[data-testid="import-read"]');
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid="import-error"]')?.textContent ?? ''), said.source, { timeout: 30000 });
    console.log(`refused in ${Date.now() - start} ms: ${said.source}`);
  }
  // The same worker reads the next file, and then a lesson.
  await page.fill('[data-testid="import-go"]', 'package main\n\nfunc main() {}\n');
  await page.click('[data-testid="import-read"]');
  await page.waitForFunction(() => /no controller found/.test(document.querySelector('[data-testid="import-error"]')?.textContent ?? ''));
  await page.keyboard.press('Escape');
  // A trainer's lesson file, read by the same worker in the same page.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wq-after-hostile-'));
  fs.copyFileSync(path.join(root, 'docs/example-lesson.md'), path.join(dir, 'after.md'));
  await page.setInputFiles('[data-testid="lesson-upload"]', path.join(dir, 'after.md'));
  await page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 30000 });
  assert.deepEqual(problems.console, []);
  await context.close();
});
