// Nothing a user set is lost by any action: a version switch, an Apply, a
// reload, a download and a load. Each is checked field by field on the run
// itself (the file *Download run* writes), on scenarios with a client limit,
// requests per reconcile, keys from the file, an explicit limiter and keys
// typed on the page; and on a manager, whose form comes back too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { serve, launch, open, shot, nextStep } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// Scenarios unlike the form's defaults in every field the form cannot show.
const files = {
  'max-of fast/slow, a clientset limit, keys from the file': {
    version: 2, name: 'kept', seed: 11, duration_ns: '60s',
    client: { qps: 5, burst: 10, per: 'clientset' },
    controllers: [{
      name: 'widgets', kind: 'widgets', requests_per_reconcile: 3,
      limiter: { type: 'max_of', limiters: [{ type: 'fast_slow', fast_ns: '20ms', slow_ns: '5s', max_fast_attempts: 2 }, { type: 'bucket', qps: 3, burst: 4 }] },
      controller: { workers: 2, reconcile_ns: '20ms' },
      default_script: { type: 'fail_then_succeed', failures: 2 },
      items: [{ key: 'file/a' }, { key: 'file/b', add_at_ns: '1s' }],
    }],
  },
  'a bucket only, per-kind client, a storm source': {
    version: 2, name: 'bucketed', seed: 5, duration_ns: '30s',
    client: { qps: 2, burst: 3 },
    controllers: [{
      name: 'gadgets', requests_per_reconcile: 2,
      limiter: { type: 'bucket', qps: 4, burst: 2 },
      controller: { workers: 3, reconcile_ns: '50ms' },
      default_script: { type: 'fail_then_succeed', failures: 1 },
      sources: [{ type: 'add_many', prefix: 'src/obj-', count: 12, at_ns: '500ms' }],
    }],
  },
};

async function downloadRun(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download"]')]);
  return JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
}

async function load(page, name, json) {
  await page.setInputFiles('[data-testid="upload"]', { name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(json)) });
  await page.waitForSelector('text=Scenario loaded.');
}

// Every leaf of `a` and `b` that differs, by its path.
function differences(a, b, path = '', out = []) {
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], `${path}.${k}`, out);
  } else if (a !== b) out.push(`${path}: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`);
  return out;
}

async function formValues(page) {
  await page.click('[data-testid="tab-settings"]');
  return page.$$eval('form.settings input, form.settings select', (els) => Object.fromEntries(els.map((e) => [e.id, e.value])));
}

async function playTo(page, seconds) {
  if ((await page.getAttribute('[data-testid="play"]', 'aria-label')) === 'Play') await page.click('[data-testid="play"]');
  await page.waitForFunction((s) => {
    const t = document.querySelector('[data-testid="clock"]')?.textContent ?? '';
    const m = t.match(/([\d.]+)s/);
    return m && Number(m[1]) >= s;
  }, seconds, { timeout: 20000 });
  await page.click('[data-testid="play"][aria-label="Pause"]');
}

for (const [what, scenario] of Object.entries(files)) {
  test(`every action keeps every setting: ${what}`, async () => {
    const { page, context, problems } = await open(browser, url);
    await load(page, `${scenario.name}.json`, scenario);
    // A key typed on the page, then a little of the run.
    await page.fill('[data-testid="key"]', 'typed/one');
    await page.click('[data-testid="add"]');
    await playTo(page, 1.5);
    const start = await downloadRun(page);
    assert.ok(start.run_to >= 1.5e9, `the instant is in the file: ${start.run_to}`);
    assert.ok(start.inputs.some((i) => i.do.key === 'typed/one'), 'the typed key is in the file');
    assert.deepEqual((start.scenario.controllers[0].items ?? []).map((i) => i.key), (scenario.controllers[0].items ?? []).map((i) => i.key), "the file's keys");

    // The version switch: only the queue changes.
    await page.click('[data-testid="queue-priority"]');
    await page.waitForSelector('[data-testid="queue-priority"][aria-checked="true"]');
    const switched = await downloadRun(page);
    assert.deepEqual(differences(start, switched), ['.scenario.controllers.0.queue: undefined -> "priority"'], 'only the queue (client-go\'s, the default, is not written)');

    // Apply after changing only the workers: only the workers change.
    const before = await formValues(page);
    await page.fill('#f-workers', '4');
    await page.click('[data-testid="apply"]');
    const applied = await downloadRun(page);
    assert.deepEqual(differences(switched, applied), [`.scenario.controllers.0.controller.workers: ${switched.scenario.controllers[0].controller.workers} -> 4`]);
    const form = await formValues(page);
    assert.deepEqual(differences(before, form), [`.f-workers: "${before['f-workers']}" -> "4"`]);

    // A reload: nothing changes at all, the form neither.
    const clock = await page.textContent('[data-testid="clock"]');
    await page.reload();
    await page.waitForSelector('[data-testid="clock"]');
    await page.waitForFunction((c) => document.querySelector('[data-testid="clock"]')?.textContent === c, clock, { timeout: 10000 });
    const reloaded = await downloadRun(page);
    assert.deepEqual(differences(applied, reloaded), []);
    assert.deepEqual(differences(form, await formValues(page)), []);

    // The file loads back to the same run, at the same instant.
    await page.goto(url);
    await page.waitForSelector('[data-testid="clock"]');
    await load(page, 'workqueue-run.json', reloaded);
    assert.equal(await page.textContent('[data-testid="clock"]'), clock);
    assert.deepEqual(differences(reloaded, await downloadRun(page)), []);
    await shot(page, `keeps-${scenario.name}`);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
}

test('a manager is reloaded with its form, and a new address starts afresh', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.click('[data-testid="tab-settings"]');
  await page.selectOption('[data-testid="pv-client-per"]', 'shared');
  await page.fill('[data-testid="pv-requests"]', '7');
  await page.click('[data-testid="run-manager"]');
  await page.waitForSelector('[data-stage][data-manager]');
  await playTo(page, 1);
  const form = () => page.$$eval('form.provider input, form.provider select', (els) => els.map((e) => `${e.id}=${e.type === 'checkbox' ? e.checked : e.value}`));
  const first = await downloadRun(page);
  assert.equal(first.scenario.client.per, 'shared');
  // The version switch: every controller's queue, and nothing else.
  await page.click('[data-testid="queue-priority"]');
  await page.waitForSelector('[data-testid="queue-priority"][aria-checked="true"]');
  await page.waitForFunction(() => /v0\.23: [\d,]+ reconciles/.test(document.querySelector('[data-testid="version-compare"]')?.textContent ?? ''));
  const run = await downloadRun(page);
  assert.deepEqual(differences(first, run), first.scenario.controllers.map((_, i) => `.scenario.controllers.${i}.queue: undefined -> "priority"`));
  await page.click('[data-testid="tab-settings"]');
  const fields = await form();
  assert.ok(fields.includes('pv-client-per=shared') && fields.includes('pv-requests=7'), fields.join(' '));
  await page.reload();
  await page.waitForSelector('[data-stage][data-manager]');
  assert.deepEqual(differences(run, await downloadRun(page)), []);
  await page.click('[data-testid="tab-settings"]');
  assert.deepEqual(await form(), fields);
  // The same address opened anew (not reloaded) is a fresh playground.
  await page.goto(url);
  await page.waitForSelector('[data-testid="clock"]');
  assert.equal(await page.$('[data-stage][data-manager]'), null);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a reload keeps the lesson step reached, whatever step the address named', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson=sets&step=1`);
  await page.waitForSelector('[data-testid="lesson-step-title"]');
  const steps = Number((await page.textContent('[data-testid="lesson"] h2 small')).match(/of (\d+)/)[1]);
  for (let step = 2; step <= steps; step++) {
    await nextStep(page);
    const title = await page.textContent('[data-testid="lesson-step-title"]');
    await page.reload();
    await page.waitForSelector('[data-testid="lesson-step-title"]');
    assert.equal(await page.textContent('[data-testid="lesson-step-title"]'), title, `step ${step} after a reload`);
  }
  assert.deepEqual(problems.console, []);
  await context.close();
});
