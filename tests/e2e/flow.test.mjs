// The "done when": enqueue a key, make it fail three times and then
// succeed, and read from the screen exactly when and why each retry happened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot, onPage } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

async function untilDeciding(page, key) {
  for (let i = 0; i < 10; i++) {
    if (await page.$(`.worker.deciding [data-key="${key}"]`)) return;
    await page.click('[data-testid="step"]');
  }
  throw new Error(`${key} never reached a decision`);
}

test('fail three times, then succeed: each retry is explained with the exact numbers', () => onPage(browser, url, async ({ page }) => {
  await page.click('[data-testid="play"]'); // pause; the test steps event by event
  const key = 'default/web-1';
  await page.fill('[data-testid="key"]', key);
  await page.click('[data-testid="add"]');
  // client-go's default limiter: 5ms·2^(n-1) per key, the bucket still full.
  const expected = ['5ms', '10ms', '20ms'];
  for (let n = 0; n < 3; n++) {
    await untilDeciding(page, key);
    await page.click('[data-testid="outcome-error"]');
    const calls = await page.textContent('[data-testid="calls"]');
    assert.match(calls, new RegExp(`AddRateLimited\\("${key}"\\): When = ${expected[n]}`), calls);
    assert.equal(await page.textContent('[data-testid="num-requeues"]'), String(n + 1));
    const answers = await page.$$eval('[data-testid="answer-delay"]', (els) => els.map((e) => e.textContent));
    // max-of, then its parts: the exponential answer wins, the bucket says 0s.
    assert.deepEqual(answers, [expected[n], expected[n], '0s']);
    assert.match(await page.textContent('tr.won'), /exponential/);
    assert.match(await page.textContent('[data-testid="where"]'), new RegExp(`waiting, ready in ${expected[n]}`));
    await shot(page, `10-failure-${n + 1}`);
  }
  await untilDeciding(page, key);
  await page.click('[data-testid="outcome-success"]');
  assert.equal(await page.textContent('[data-testid="num-requeues"]'), '0', 'Forget on success');
  assert.match(await page.textContent('[data-testid="calls"]'), /queue\.Forget\("default\/web-1"\)/);
  assert.match(await page.textContent('[data-testid="where"]'), /not queued/);
  // The log has the whole story, with virtual timestamps.
  const log = await page.textContent('[data-testid="log"]');
  for (const d of expected) assert.match(log, new RegExp(`AddAfter\\("${key}", ${d}\\)`));
  await shot(page, '11-success');
}));

test('each outcome shows the queue calls it causes', async () => {
  const { page, context } = await open(browser, url);
  await page.click('[data-testid="play"]');
  const cases = [
    ['success', [/queue\.Forget/], /AddAfter|AddRateLimited/],
    ['requeue', [/AddRateLimited/], /Forget/],
    ['requeue-after', [/queue\.Forget/, /AddAfter\("k-requeue-after", 30s\)/], /AddRateLimited/],
    ['error', [/AddRateLimited/], /Forget/],
    ['terminal', [/TerminalError/], /AddRateLimited|AddAfter|Forget/],
    ['error-after', [/RequeueAfter: 30s\}, err/, /AddRateLimited/], /AddAfter\("k-error-after", 30s/],
  ];
  for (const [id, present, absent] of cases) {
    await page.click('button:has-text("Restart")'); // each case on a fresh run
    const key = `k-${id}`;
    await page.fill('[data-testid="key"]', key);
    await page.click('[data-testid="add"]');
    await untilDeciding(page, key);
    await page.click(`.worker.deciding [data-testid="outcome-${id}"]`);
    const calls = await page.textContent('[data-testid="calls"]');
    for (const p of present) assert.match(calls, p, `${id}: ${calls}`);
    assert.doesNotMatch(calls, absent, `${id}: ${calls}`);
  }
  await shot(page, '12-outcomes');
  await context.close();
});
