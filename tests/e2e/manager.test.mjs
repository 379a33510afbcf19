// A Crossplane user loads a provider: three controllers share one global
// bucket and one API client, drawn once; each has its own queue.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot, nextStep } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('a provider of three kinds shares one global bucket and one client', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.click('[data-testid="run-manager"]');
  await page.waitForSelector('[data-stage][data-manager]');
  assert.equal(await page.locator('[data-testid="controller"]').count(), 3, 'one column per controller');
  // The shared parts are drawn once, and say who shares them.
  assert.equal(await page.locator('[data-testid="shared-global"]').count(), 1);
  assert.match(await page.textContent('[data-testid="shared-global"]'), /shared by buckets, queues, topics/);
  assert.match(await page.textContent('[data-testid="shared-client"]'), /API client: refills 50\/s/);
  await page.waitForTimeout(2500);
  // Every controller gets reconciles, and the client has sent requests.
  for (const stats of await page.locator('[data-testid="controller-stats"]').allTextContents()) {
    assert.match(stats, /^[1-9][\d,]* reconciles/, stats);
  }
  assert.match(await page.textContent('[data-testid="client-totals"]'), /[1-9][\d,]* requests/);
  // Why is this key waiting? Across levels. Paused, so the chip holds still
  // under the pointer however slow the machine.
  await page.click('[data-testid="play"]');
  await page.click('[data-testid="controller"] >> nth=1 >> .chip.waiting >> nth=0');
  assert.match(await page.textContent('[data-testid="holding"]'), /backoff|bucket|client/);
  await page.click('[data-testid="play"]');
  // Together against the global bucket: the total over the last second, and its limit.
  assert.match(await page.textContent('[data-testid="total-rate"]'), /All 3 controllers: [\d.]+ reconciles\/s over the last second, against the 10\/s that the global bucket allows/);
  await shot(page, '60-manager-provider');
  // Played to its end, the run says so.
  await page.fill('[aria-label="Speed"]', '2');
  await page.waitForSelector('[data-testid="run-ended"]', { timeout: 30000 });
  assert.match(await page.textContent('[data-testid="run-ended"]'), /The run ended at 1m0s/);
  assert.match(await page.textContent('[data-testid="notice"]'), /reached its set length, 1m0s/);
  assert.match(await page.textContent('[data-testid="clock"]'), /1m0s|60/);
  const rate = parseFloat((await page.textContent('[data-testid="total-rate"]')).split(':')[1]);
  assert.ok(rate > 5 && rate <= 10.5, `after the burst the three share about 10/s: ${rate}`);
  await page.locator('[data-testid="run-ended"]').scrollIntoViewIfNeeded();
  await shot(page, '61-manager-ended');
  await page.click('[data-testid="exit-manager"]');
  await page.waitForSelector('[data-stage]:not([data-manager])');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a bad manager setting is named and nothing runs', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.fill('[data-testid="pv-kinds"]', '40');
  await page.press('[data-testid="pv-kinds"]', 'Tab');
  await page.click('[data-testid="run-manager"]');
  assert.match(await page.textContent('[data-testid="pv-error"]'), /^Controllers: 40 is out of range/);
  assert.equal(await page.$('[data-stage][data-manager]'), null);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('the provider lesson: the bucket is shared, then the client holds everyone', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson=provider&step=2`);
  await page.fill('[data-testid="guess"]', '10');
  await page.click('[data-testid="reveal"]');
  const three = Number(await page.textContent('[data-testid="answer-value"]').then((t) => t.match(/[\d.]+/)[0]));
  assert.ok(three >= 9 && three <= 11, `three kinds share 10/s: ${three}`);
  // The step's scene is the provider itself: three kinds, one global bucket.
  await page.waitForSelector('[data-stage][data-manager]');
  assert.equal(await page.locator('[data-testid="controller"]').count(), 3);
  // The next step brings 10 requests per reconcile: the client holds everyone.
  await nextStep(page, 30000);
  assert.match(await page.textContent('[data-testid="lesson-step-title"]'), /client is the bottleneck/);
  await page.fill('[data-testid="guess"]', '5');
  await page.click('[data-testid="reveal"]');
  assert.match(await page.textContent('[data-testid="answer-value"]'), /^5\.0 per second/);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('the provider example file loads as a manager, and its share link reopens it', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { root } = await import('./harness.mjs');
  const { page, context, problems } = await open(browser, url);
  await page.setInputFiles('[data-testid="upload"]', path.join(root, 'scenarios', 'crossplane-provider.json'));
  await page.waitForSelector('[data-stage][data-manager]');
  const names = await page.$$eval('[data-testid="controller"]', (cs) => cs.map((c) => c.dataset.controller));
  assert.deepEqual(names, ['managed/bucket.example.org', 'managed/queue.example.org', 'managed/topic.example.org']);
  await page.keyboard.press(' ');
  await page.waitForTimeout(1000);
  await page.keyboard.press(' ');
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  await context.close();
  const again = await open(browser, link.replace(/^http:\/\/[^/]+/, url));
  await again.page.waitForSelector('[data-stage][data-manager]');
  assert.equal(await again.page.locator('[data-testid="controller"]').count(), 3);
  assert.ok(fs.existsSync(path.join(root, 'scenarios', 'crossplane-provider.json')));
  assert.deepEqual(problems.console, []);
  await again.context.close();
});

test('a bucket passed to some controllers and not others', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.selectOption('[data-testid="pv-sharing"]', 'bucket');
  await page.selectOption('[data-testid="pv-client"]', 'off');
  await page.uncheck('[data-testid="pv-share-1"]');
  await page.click('[data-testid="run-manager"]');
  await page.waitForSelector('[data-stage][data-manager]');
  assert.match(await page.textContent('[data-testid="shared-shared"] h3'), /passed to buckets, topics$/);
  assert.match(await page.textContent('[data-testid="shared-client"]'), /No client-side limit/);
  await shot(page, '61-manager-shared-bucket');
  assert.deepEqual(problems.console, []);
  await context.close();
});
