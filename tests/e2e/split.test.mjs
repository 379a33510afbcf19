// The release page's wasm comes in two parts (crates/wasm-split): the first
// screen runs on the primary, the rest arrives alongside it. Whether the rest
// comes early, late or is needed before it arrived, the page works the same.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { serve, launch, dist, canvasChecksum } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const watchErrors = (page) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return errors;
};

// A storm on the charts tab: engine, limiter and chart code, none of it in the first screen.
async function stormOnCharts(page) {
  await page.selectOption('[data-testid="script"]', 'always-error');
  await page.click('[data-testid="apply"]');
  await page.click('[data-testid="tab-charts"]');
  const before = await canvasChecksum(page, 'chart-requeues');
  await page.fill('[data-testid="count"]', '200');
  await page.click('[data-testid="add-many"]');
  await page.waitForTimeout(1500);
  assert.notEqual(await canvasChecksum(page, 'chart-requeues'), before, 'the requeue chart drew the storm');
}

test('dist holds a primary and a rest, and index.html preloads the rest', () => {
  const files = fs.readdirSync(dist);
  const primary = files.filter((f) => f.endsWith('_bg.wasm'));
  const rest = files.filter((f) => f.endsWith('_lazy.wasm'));
  assert.equal(primary.length, 1);
  assert.deepEqual(rest, [primary[0].replace('_bg.wasm', '_lazy.wasm')]);
  assert.ok(fs.statSync(`${dist}/${rest[0]}`).size > 100_000, 'the rest is a real share of the code');
  assert.match(fs.readFileSync(`${dist}/index.html`, 'utf8'), new RegExp(`<link rel="preload" href="/${rest[0]}"[^>]*data-wq-lazy>`));
});

test('the rest arrives alongside the first screen, in one request', async () => {
  const context = await browser.newContext();
  const kinds = [];
  await context.route('**/*_lazy.wasm', (route) => { kinds.push(route.request().resourceType()); return route.continue(); });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await page.waitForSelector('[data-testid="clock"]');
  await stormOnCharts(page);
  assert.equal(kinds.length, 1, `one request: the preload, which the loader reuses (saw ${kinds})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a click that comes before the rest arrived loads it at once', async () => {
  const context = await browser.newContext();
  // The preload and the loader's fetch of the rest hang; only a synchronous load gets it.
  const kinds = [];
  await context.route('**/*_lazy.wasm', async (route) => {
    kinds.push(route.request().resourceType());
    if (route.request().resourceType() === 'xhr') return route.continue();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    return route.continue().catch(() => {});
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await page.waitForSelector('[data-testid="clock"]');
  assert.ok(!kinds.includes('xhr'), 'the first screen ran without the rest');
  await stormOnCharts(page);
  assert.ok(kinds.includes('xhr'), `the first use of moved code loaded the rest synchronously (requests: ${kinds})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lesson link starts with both parts', async () => {
  const context = await browser.newContext({ viewport: { width: 700, height: 600 } });
  const kinds = [];
  await context.route('**/*_lazy.wasm', (route) => { kinds.push(route.request().resourceType()); return route.continue(); });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${url}/?embed=1&lesson=max-of&step=1`);
  await page.waitForSelector('[data-testid="clock"]');
  assert.ok(kinds.length >= 1 && !kinds.includes('xhr'), `fetched before start, never synchronously (requests: ${kinds})`);
  assert.deepEqual(errors, []);
  await context.close();
});
