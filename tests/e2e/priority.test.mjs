// controller-runtime v0.23: a controller author picks their version on the
// stage and sees what their controller does, exported as the Go they need.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot, failingStorm, nextStep, onPage } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const switchTo = async (page, which) => {
  await page.click(`[data-testid="queue-${which}"]`);
  await page.waitForFunction((w) => document.querySelector('[data-stage]')?.dataset.queue === w, which === 'priority' ? 'priority' : 'client_go');
};

test('switching versions changes the queue, the default limiter and the Go code', () => onPage(browser, url, async ({ page }) => {
  assert.equal(await page.getAttribute('[data-testid="queue-client-go"]', 'aria-checked'), 'true');
  assert.match(await page.textContent('[data-testid="bucket"]'), /controller bucket: refills 10\/s/);
  await switchTo(page, 'priority');
  assert.equal(await page.getAttribute('[data-testid="queue-priority"]', 'aria-checked'), 'true');
  assert.match(await page.textContent('[data-testid="queue"]'), /^Ready/);
  assert.match(await page.textContent('[data-testid="bucket"]'), /no bucket/, 'v0.23: per-item backoff alone');
  // The same storm as the bucket test: nothing holds it back any more.
  await failingStorm(page, 150);
  await page.waitForTimeout(300);
  assert.match(await page.textContent('[data-testid="bucket"]'), /no bucket/);
  // Keys present at t=0 are the informer's initial list: priority -100, drawn lower.
  // Failures are re-added with the priority they were handed out with.
  assert.equal(await page.getAttribute('[data-stage] [data-testid="waiting"] .chip >> nth=0', 'data-priority'), '-100');
  await page.click('[data-testid="go-code"]');
  const go = await page.textContent('[data-testid="go-snippet"]');
  assert.doesNotMatch(go, /UsePriorityQueue:\s+ptr\.To\(false\)/);
  // v0.23's own default limiter: no RateLimiter option at all.
  assert.doesNotMatch(go, /RateLimiter:/);
  assert.match(go, /backs off 5ms to 1000s per item/);
  await page.keyboard.press('Escape');
  await shot(page, '50-priority-queue');
  await switchTo(page, 'client-go');
  await page.click('[data-testid="go-code"]');
  assert.match(await page.textContent('[data-testid="go-snippet"]'), /UsePriorityQueue:\s+ptr\.To\(false\)/);
}));

test('the v0.23 lesson: no bucket, then one passed back in', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson=v023`);
  await page.fill('[data-testid="guess"]', '70000');
  await page.click('[data-testid="reveal"]');
  const noBucket = Number((await page.textContent('[data-testid="answer-value"]')).replace(/[^\d]/g, ''));
  assert.equal(noBucket, 70000);
  assert.match(await page.textContent('[data-testid="answer"]'), /you got it/);
  await nextStep(page);
  await page.fill('[data-testid="guess"]', '70000');
  await page.click('[data-testid="reveal"]');
  const withBucket = Number((await page.textContent('[data-testid="answer-value"]')).replace(/[^\d]/g, ''));
  assert.ok(withBucket >= 100 && withBucket <= 111, `the bucket is back: ${withBucket}`);
  assert.match(await page.textContent('[data-testid="answer"]'), /you said 70000/);
  await nextStep(page);
  await page.fill('[data-testid="guess"]', '10ms');
  await page.click('[data-testid="reveal"]');
  assert.match(await page.textContent('[data-testid="answer"]'), /you got it/);
  // Playing on does not move the answer.
  await page.keyboard.press(' ');
  await page.waitForTimeout(800);
  assert.match(await page.textContent('[data-testid="answer-value"]'), /^10ms/);
  await shot(page, '51-v023-lesson');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a share link keeps the chosen version', async () => {
  const { page, context } = await open(browser, url);
  await switchTo(page, 'priority');
  await page.click('[data-testid="add"]');
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  await context.close();
  const again = await open(browser, link.replace(/^http:\/\/[^/]+/, url));
  assert.equal(await again.page.getAttribute('[data-testid="queue-priority"]', 'aria-checked'), 'true');
  await again.context.close();
});

test("the comparison runs the newcomer's own scenario, and the articles' storm on request", async () => {
  const { page, context, problems } = await open(browser, url);
  await failingStorm(page, 300);
  await page.waitForTimeout(1000);
  await page.click('[data-testid="compare-toggle"]');
  assert.equal(await page.getAttribute('[data-testid="compare-yours"]', 'aria-checked'), 'true', 'their run first');
  assert.match(await page.textContent('[data-testid="compare-intro"]'), /Your scenario/);
  const captions = await page.$$eval('[data-testid="compare"] figcaption', (fs) => fs.map((f) => f.textContent));
  assert.equal(captions.length, 4);
  for (const c of captions) assert.match(c, /: [\d,]+ requeues/, c);
  const counts = captions.map((c) => Number(c.match(/: ([\d,]+) requeues/)[1].replace(/,/g, '')));
  assert.ok(counts.some((n) => n > 0), `their 300 failing keys requeue: ${captions}`);
  await shot(page, '34-compare-yours');
  await page.click('[data-testid="compare-articles"]');
  assert.match(await page.textContent('[data-testid="compare-totals"]'), /v0\.23 default 70,000/);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('the comparison shows v0.23 beside the classic limiters', async () => {
  const { page, context } = await open(browser, url);
  await page.click('[data-testid="compare-toggle"]');
  const totals = await page.textContent('[data-testid="compare-totals"]');
  const v023 = Number(totals.match(/v0\.23 default ([\d,]+)/)[1].replace(/,/g, ''));
  assert.equal(v023, 70000, totals);
  await context.close();
});

test('switching the version keeps the run: the same storm on the other queue, both runs in figures', async () => {
  const { page, context, problems } = await open(browser, url);
  await failingStorm(page, 300);
  await page.waitForTimeout(1500);
  await page.click('[data-testid="play"]'); // pause
  await switchTo(page, 'priority');
  await page.waitForSelector('[data-testid="version-compare"]');
  // Both runs' figures are taken at one instant, the switch's.
  await page.waitForFunction(() => /v0\.23: [\d,]+ reconciles/.test(document.querySelector('[data-testid="version-compare"]')?.textContent ?? ''));
  const text = await page.textContent('[data-testid="version-compare"]');
  assert.match(text, /^Both at [\d.]+m?s/, text);
  assert.match(text, /v0\.22: [\d,]+ reconciles/, text);
  assert.match(text, /v0\.23: [\d,]+ reconciles/, text);
  await page.waitForTimeout(1500);
  assert.equal(await page.textContent('[data-testid="version-compare"]'), text, 'the figures stay those of the one instant');
  assert.match(await page.textContent('[data-testid="waiting"]') + await page.textContent('[data-testid="queue"]') + await page.textContent('[data-testid="workers"]'), /pod-/, 'the storm is still there');
  await shot(page, '52-version-switch');
  assert.deepEqual(problems.console, []);
  await context.close();
});
