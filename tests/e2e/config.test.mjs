// Changing the limiter: presets, inline validation, and what the stage shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot, failingStorm, parseGoDuration, onPage } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('a bad value is flagged inline and never reaches the run', () => onPage(browser, url, async ({ page }) => {
  await page.fill('#f-base', '-5ms');
  assert.match(await page.textContent('#f-base-hint'), /negative/);
  assert.equal(await page.getAttribute('#f-base', 'aria-invalid'), 'true');
  assert.ok(await page.isDisabled('[data-testid="apply"]'));
  await page.fill('#f-base', '5 parsecs');
  assert.match(await page.textContent('#f-base-hint'), /unknown unit/);
  await shot(page, '20-invalid');
  await page.fill('#f-base', '5ms');
  assert.ok(await page.isDisabled('[data-testid="apply"]'), 'back to the applied values: nothing to apply');
}));

test('bucket only: 100 keys go at once, then the bucket runs into debt', async () => {
  const { page, context } = await open(browser, url);
  await page.selectOption('[data-testid="preset"]', 'bucket');
  await page.selectOption('[data-testid="script"]', 'always-error');
  await page.fill('#f-reconcile', '0s');
  await page.click('[data-testid="apply"]');
  await page.fill('[data-testid="count"]', '150');
  await page.click('[data-testid="add-many"]');
  await page.waitForTimeout(300);
  // Every key fails at once: 150 reservations (and more) from a bucket of 100.
  const tokens = parseFloat(await page.textContent('[data-testid="tokens"]'));
  assert.ok(tokens < 0, `tokens ${tokens}`);
  assert.match(await page.textContent('[data-testid="bucket"]'), /in debt/);
  await shot(page, '21-bucket-debt');
  await context.close();
});

test('Crossplane preset derives 10 workers and a 1s→60s per-object backoff from R=10', async () => {
  const { page, context } = await open(browser, url);
  await page.selectOption('[data-testid="preset"]', 'crossplane');
  await page.fill('#f-rate', '10');
  await page.click('[data-testid="apply"]');
  assert.match(await page.textContent('[data-testid="workers"]'), /of 10 busy/);
  assert.match(await page.textContent('[data-testid="bucket"]'), /global bucket \(Crossplane\): refills 10\/s/);
  await shot(page, '22-crossplane');
  await context.close();
});

test('the form picks which Crossplane: core since v2.1 has its breaker on the stage and exports its flags, not Go', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.selectOption('[data-testid="preset"]', 'crossplane');
  // The 2021 design first, as every file reads by default: the global bucket.
  assert.equal(await page.inputValue('[data-testid="profile"]'), 'note-2021');
  await page.selectOption('[data-testid="profile"]', 'core');
  assert.match(await page.textContent('#f-rate-hint'), /workers per controller/);
  await page.fill('#f-breaker-burst', 'lots');
  assert.match(await page.textContent('#f-breaker-burst-hint'), /not a number of 0 or more/);
  assert.ok(await page.isDisabled('[data-testid="apply"]'));
  await page.fill('#f-breaker-burst', '20');
  await page.fill('#f-breaker-cooldown', '90s');
  await page.fill('#f-reconcile', '0s');
  await page.selectOption('[data-testid="script"]', 'success');
  await page.click('[data-testid="apply"]');
  assert.match(await page.textContent('[data-testid="bucket"]'), /XR circuit breaker/);
  // A storm of 50 updates a second on one XR: 20 tokens, 2 an update, +1/s.
  await page.fill('#in-storm-key', 'xr-hot');
  await page.fill('[data-testid="rate"]', '50');
  await page.fill('#in-storm-for', '10s');
  await page.click('[data-testid="storm"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="breaker-xr"]')?.dataset.state === 'open', null, { timeout: 10000 });
  const row = await page.textContent('[data-testid="breaker-xr"]');
  assert.match(row, /xr-hot/);
  assert.match(row, /open: drops events; closes in 1m2\d|open: drops events; closes in 1m[0-3]\d/);
  assert.match(await page.textContent('[data-testid="breaker-counts"]'), /[1-9][\d,]* dropped/);
  await shot(page, '24-crossplane-core-breaker');
  // The export: core is configured by its flags, so the Helm values that set them.
  await page.click('[data-testid="go-code"]');
  assert.equal(await page.getAttribute('.modal', 'aria-label'), "The same setup as Crossplane's Helm values");
  const values = await page.textContent('[data-testid="go-snippet"]');
  for (const flag of ['--max-concurrent-reconciles=10', '--circuit-breaker-burst=20', '--circuit-breaker-refill-rate=1', '--circuit-breaker-cooldown=1m30s']) {
    assert.ok(values.includes(`- ${flag}`), `${flag} in\n${values}`);
  }
  assert.doesNotMatch(values, /NewGlobal|package main/);
  await page.keyboard.press('Escape');
  // Back to a provider: the bucket is back, the export is Go.
  await page.selectOption('[data-testid="profile"]', 'provider');
  await page.click('[data-testid="apply"]');
  assert.match(await page.textContent('[data-testid="bucket"]'), /global bucket \(Crossplane\)/);
  await page.click('[data-testid="go-code"]');
  assert.match(await page.textContent('[data-testid="go-snippet"]'), /^package main/);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('ten thousand keys stay responsive and are aggregated', async () => {
  const { page, context, problems } = await open(browser, url);
  await failingStorm(page, 10000);
  await page.waitForTimeout(1500);
  const chips = await page.$$eval('.chip', (els) => els.length);
  assert.ok(chips < 200, `${chips} chips drawn`);
  assert.match(await page.textContent('[data-testid="waiting"]'), /more/);
  // The gate refuses it next to the field, naming the field and the range.
  await page.fill('[data-testid="count"]', '300000');
  await page.click('[data-testid="add-many"]');
  assert.match(await page.textContent('[data-testid="field-error"]'), /^Distinct keys: 300000 keys is out of range: use 1 to 250000/);
  assert.equal(await page.getAttribute('[data-testid="count"]', 'aria-invalid'), 'true');
  // Within the range, but more than the run has room for: the run says so.
  await page.fill('[data-testid="count"]', '245000');
  await page.click('[data-testid="add-many"]');
  assert.match(await page.textContent('[data-testid="notice"]'), /limit of 250000/);
  await shot(page, '23-ten-thousand');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a vanishing storm rate is refused by name and the page keeps running', () => onPage(browser, url, async ({ page }) => {
  await page.fill('[data-testid="rate"]', '1e-10');
  await page.click('[data-testid="storm"]');
  assert.match(await page.textContent('[data-testid="field-error"]'), /^Events per second: 1e-10 events per second is out of range: use 0\.001 to 1000000/);
  assert.equal(await page.getAttribute('[data-testid="rate"]', 'aria-invalid'), 'true');
  // An empty duration is named as its label reads, not by the file's field name.
  await page.fill('[data-testid="rate"]', '50');
  await page.fill('#in-storm-for', '');
  await page.click('[data-testid="storm"]');
  const empty = await page.textContent('[data-testid="field-error"]');
  assert.match(empty, /^Storm duration: empty: write a duration such as 5ms/);
  assert.doesNotMatch(empty, /_ns|per_second/);
  assert.equal(await page.getAttribute('#in-storm-for', 'aria-invalid'), 'true');
  await page.fill('#in-storm-for', '2s');
  // Still alive: a key added now is handled.
  await page.fill('[data-testid="rate"]', '50');
  await page.click('[data-testid="storm"]');
  assert.equal(await page.$('[data-testid="field-error"]'), null, 'a valid input clears the message');
  const t0 = parseGoDuration(await page.textContent('[data-testid="clock"]'));
  await page.waitForTimeout(500);
  assert.ok(parseGoDuration(await page.textContent('[data-testid="clock"]')) > t0, 'the clock moves on');
}));

test('a run that cannot progress stops with a message and the page stays usable', async () => {
  const { page, context, problems } = await open(browser, url);
  // A zero backoff with instant failing reconciles: the key is back in the
  // queue at the same instant, for ever.
  await page.selectOption('[data-testid="preset"]', 'per-item');
  await page.fill('#f-base', '0s');
  await page.fill('#f-max', '0s');
  await page.selectOption('[data-testid="script"]', 'always-error');
  await page.fill('#f-reconcile', '0s');
  await page.click('[data-testid="apply"]');
  await page.click('[data-testid="add"]');
  await page.waitForFunction(() => /Paused: .*zero-delay retry loop/.test(document.querySelector('[data-testid="notice"]')?.textContent || ''), null, { timeout: 20000 });
  assert.equal(await page.getAttribute('[data-testid="play"]', 'aria-label'), 'Play', 'it paused itself');
  // Responsive: a frame still comes within a frame or two, and Restart works.
  const gap = await page.evaluate(() => new Promise((r) => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); }));
  assert.ok(gap < 100, `next frame after ${gap}ms`);
  await page.click('button:has-text("Restart")');
  assert.equal(await page.textContent('[data-testid="clock"]'), '0s');
  assert.deepEqual(problems.console, []);
  await context.close();
});
