// The page as a newcomer first sees it: it renders, draws, stays offline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot, canvasChecksum as canvasSum } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('renders with no console errors and no request leaving localhost', async () => {
  const { page, problems, context } = await open(browser, url);
  await page.waitForTimeout(500);
  assert.match(await page.textContent('h1'), /Workqueue Playground/);
  // A first visit: nothing happens yet, so no clock counts up an empty stage.
  assert.equal(await page.textContent('[data-testid="clock"]'), '0s', 'no clock running while nothing happens');
  assert.match(await page.textContent('[data-testid="pace"]'), /waiting for your first key/);
  await shot(page, '01-first-load');
  await page.click('[data-testid="add"]');
  await page.waitForTimeout(500);
  assert.notEqual(await page.textContent('[data-testid="clock"]'), '0s', 'virtual time runs once a key is added');
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.external, []);
  await context.close();
});

test('the charts really draw: pixels change as the run goes on', async () => {
  const { page, problems, context } = await open(browser, url);
  await page.selectOption('[data-testid="script"]', 'always-error');
  await page.click('[data-testid="apply"]');
  await page.click('[data-testid="tab-charts"]'); // the charts are one click away
  const before = await canvasSum(page, 'chart-requeues');
  await page.fill('[data-testid="count"]', '300');
  await page.click('[data-testid="add-many"]');
  await page.click('[data-testid="speed"]'); // no-op: the output is not a control
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.waitForTimeout(1500);
  const afterSum = await canvasSum(page, 'chart-requeues');
  assert.notEqual(afterSum, before, 'the requeue chart changed');
  await shot(page, '02-charts-after-storm');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('dark mode and reduced motion are honoured', async () => {
  const { page, context } = await open(browser, url, { colorScheme: 'dark', reducedMotion: 'reduce' });
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(15, 18, 23)');
  const anim = await page.evaluate(() => { const s = document.createElement('span'); s.className = 'chip'; document.body.append(s); return getComputedStyle(s).animationName; });
  assert.equal(anim, 'none');
  await shot(page, '03-dark');
  await context.close();
});

test('every control has an accessible name', async () => {
  const { page, context } = await open(browser, url);
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, input, select')]
    .filter((el) => {
      const label = el.getAttribute('aria-label') || el.textContent.trim() || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.closest('label');
      return !label;
    })
    .map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, []);
  await context.close();
});
