// A workshop run from a presentation clicker (it sends PageDown and PageUp):
// the trainer never touches the mouse or the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot, workshopPage } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const title = (page) => page.textContent('[data-testid="lesson-step-title"]');

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
  await page.waitForSelector('[data-testid="lesson-step-title"]');
  // The room predicts first (the scene holds until then), then it plays.
  await page.fill('[data-testid="guess"]', '1000s');
  await page.click('[data-testid="reveal"]');
  await page.waitForTimeout(600);
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

test('keyboard: a skip link to the stage, and a pending decision within 5 Tabs of it', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson=results`, { viewport: { width: 1280, height: 800 } });
  await page.click('[data-testid="play"]');
  await page.waitForSelector('.decision .outcome', { timeout: 15000 });
  await page.focus('[data-testid="skip-link"]');
  assert.ok(await page.isVisible('[data-testid="skip-link"]'), 'the skip link shows when focused');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'stage', 'Enter lands on the stage');
  let tabs = 0;
  while (tabs < 5 && !(await page.evaluate(() => !!document.activeElement.closest('.decision')))) {
    await page.keyboard.press('Tab');
    tabs += 1;
  }
  assert.ok(await page.evaluate(() => !!document.activeElement.closest('.decision')), `no decision within ${tabs} Tabs`);
  console.log(`a pending decision is ${tabs} Tabs from the stage`);
  assert.ok(!(await page.url()).includes('#stage'), 'the address keeps its fragment for share links');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a free demo in workshop mode: one large strip holds adds, the storm, the limiter and the outcome', async () => {
  for (const [width, height] of [[1024, 768], [1280, 720]]) {
    const { context, page, errors } = await workshopPage(browser, url, { width, height });
    // Everything a live demo needs is on the first screen.
    for (const sel of ['[data-testid="add"]', '[data-testid="add-many"]', '[data-testid="storm"]', '[data-testid="demo-preset"]', '[data-testid="demo-script"]', '[data-testid="queue-switch"], .queue-switch']) {
      const box = await page.locator(sel).first().boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= height, `${sel} at ${JSON.stringify(box)} in ${width}x${height}`);
    }
    // Pick what each reconcile does and a limiter without leaving the strip.
    await page.selectOption('[data-testid="demo-script"]', 'always-error');
    await page.selectOption('[data-testid="demo-preset"]', 'bucket');
    await page.fill('[data-testid="count"]', '300');
    await page.click('[data-testid="add-many"]');
    await page.waitForSelector('[data-testid="bucket-gauge"]');
    await page.waitForTimeout(1500);
    assert.match(await page.textContent('[data-testid="bucket"]'), /in debt|tokens/);
    // Keys are readable from the back of the room.
    // (Read in one step: a chip found, then measured later, may have left.)
    const size = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('[data-stage] .chip')).fontSize));
    assert.ok(size >= 16, `key labels at ${size}px`);
    // A decision: the outcome buttons come up on the stage.
    await page.selectOption('[data-testid="demo-script"]', 'live');
    await page.click('[data-testid="add"]');
    await page.waitForSelector('[data-testid="decision"] button, .decision button', { timeout: 10000 });
    await shot(page, `workshop-demo-${width}x${height}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a trainer who clicked into the guess still blanks the screen with b, and types a decimal point', async () => {
  const { context, page } = await open(browser, `${url}/?workshop=1&lesson=backoff&step=1`, { viewport: { width: 1280, height: 720 } });
  await page.waitForSelector('[data-testid="lesson-step-title"]');
  // The clicker opens the step's question.
  for (let i = 0; i < 8 && !(await page.$('[data-testid="guess"]')); i++) {
    await page.keyboard.press('PageDown');
    await page.waitForTimeout(400);
  }
  await page.click('[data-testid="guess"]');
  await page.keyboard.type('7');
  const blank = () => page.evaluate(() => !!document.querySelector('[data-testid="blank-screen"]'));
  // `b` anywhere in the field; `.` where it cannot be a decimal point.
  for (const [key, before] of [['b', '7'], ['.', '']]) {
    await page.fill('[data-testid="guess"]', before);
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
    assert.ok(await blank(), `${key} blanks the screen from inside the field`);
    await page.keyboard.press('b');
    await page.waitForTimeout(150);
    assert.ok(!(await blank()), 'b shows it again');
    assert.equal(await page.inputValue('[data-testid="guess"]'), before, `${key} typed nothing`);
  }
  await page.fill('[data-testid="guess"]', '7');
  await page.focus('[data-testid="guess"]');
  // After a digit, `.` is a decimal point.
  await page.keyboard.type('.5');
  assert.equal(await page.inputValue('[data-testid="guess"]'), '7.5');
  assert.ok(!(await blank()));
  await context.close();
});
