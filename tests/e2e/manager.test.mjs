// A Crossplane user loads a provider: three controllers share one global
// bucket and one API client, drawn once; each has its own queue.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot } from './harness.mjs';

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
  // Why is this key waiting? Across levels.
  await page.click('[data-testid="controller"] >> nth=1 >> .chip.waiting >> nth=0');
  assert.match(await page.textContent('[data-testid="holding"]'), /backoff|bucket|client/);
  await shot(page, '60-manager-provider');
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
  assert.match(await page.textContent('[data-testid="pv-error"]'), /controllers: 40 is out of range/);
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
  await page.click('[data-testid="lesson-act"]');
  await page.waitForSelector('[data-stage][data-manager]');
  assert.equal(await page.locator('[data-testid="controller"]').count(), 3);
  assert.deepEqual(problems.console, []);
  await context.close();
});
