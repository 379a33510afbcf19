// A workshop run from a presentation clicker (it sends PageDown and PageUp):
// the trainer never touches the mouse or the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const title = (page) => page.textContent('[data-testid="lesson-step-title"]');

test('PageDown alone walks the backoff lesson, predictions included, and PageUp walks back', async () => {
  const { page, context, problems } = await open(browser, `${url}/?workshop=1&lesson=backoff`, { viewport: { width: 1024, height: 768 } });
  const titles = [await title(page)];
  const presses = [];
  const t0 = Date.now();
  while (titles.length < 7 && Date.now() - t0 < 90000) {
    presses.push(await page.getAttribute('[data-testid="lesson-next"]', 'data-press'));
    await page.keyboard.press('PageDown');
    await page.waitForTimeout(700);
    const now = await title(page);
    if (now !== titles[titles.length - 1]) titles.push(now);
  }
  assert.ok(titles.length >= 7, `PageDown reached ${titles.length} steps: ${titles.join(' | ')}`);
  assert.ok(presses.includes('asked') && presses.includes('revealed'), `predictions were asked and revealed: ${presses}`);
  assert.ok(presses.includes('played'), `scenes were played: ${presses}`);
  await shot(page, 'workshop-clicker-1024');
  // PageUp goes back step by step, across the lesson boundary too.
  const here = await title(page);
  await page.keyboard.press('PageUp');
  assert.notEqual(await title(page), here);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a lesson picked from the menu leaves the clicker on the steps, not the menu', async () => {
  const { page, context } = await open(browser, `${url}/?workshop=1`, { viewport: { width: 1280, height: 720 } });
  await page.selectOption('[data-testid="lesson-pick"]', '2');
  const lesson = await page.getAttribute('[data-testid="lesson"]', 'aria-label');
  assert.match(lesson, /Per-item backoff/);
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.tagName);
  assert.notEqual(focused, 'SELECT', 'focus left the menu');
  for (let i = 0; i < 4; i++) { await page.keyboard.press('PageDown'); await page.waitForTimeout(300); }
  assert.equal(await page.getAttribute('[data-testid="lesson"]', 'aria-label'), lesson, 'PageDown did not change the lesson');
  await context.close();
});

test('the page does not jiggle while a lesson plays (layout shift under 0.02)', async () => {
  const { page, context } = await open(browser, `${url}/?lesson=backoff&step=2`, { viewport: { width: 1280, height: 720 } });
  await page.evaluate(() => {
    window.__wqShift = 0; window.__wqShifts = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) { window.__wqShift += e.value; window.__wqShifts += 1; }
    }).observe({ type: 'layout-shift', buffered: false });
  });
  await page.evaluate(() => document.querySelector('[data-testid="play"]').click());
  await page.waitForTimeout(4000);
  const { shift, shifts } = await page.evaluate(() => ({ shift: window.__wqShift, shifts: window.__wqShifts }));
  console.log(`layout shift while a lesson plays: ${shift.toFixed(4)} over ${shifts} shifts`);
  assert.ok(shift < 0.02, `cumulative layout shift ${shift.toFixed(4)} (${shifts} shifts)`);
  await context.close();
});
