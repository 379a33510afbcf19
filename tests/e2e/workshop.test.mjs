// A workshop run from a presentation clicker (it sends PageDown and PageUp):
// the trainer never touches the mouse or the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, open, shot, workshopPage, root } from './harness.mjs';
import { LESSONS } from './reading.mjs';

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

test('a trainer who clicked into the guess still blanks the screen with b, and types a decimal point anywhere in it', async () => {
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
  // `b` anywhere in the field.
  for (const [key, before] of [['b', '7'], ['b', '']]) {
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
  // `.` is a decimal point in the field, after a digit or first.
  await page.keyboard.type('.5');
  assert.equal(await page.inputValue('[data-testid="guess"]'), '7.5');
  assert.ok(!(await blank()));
  await page.fill('[data-testid="guess"]', '');
  await page.keyboard.type('.5s');
  assert.equal(await page.inputValue('[data-testid="guess"]'), '.5s');
  assert.ok(!(await blank()), 'a leading decimal point does not blank the projector');
  // Outside the field `.` blanks, as a clicker's blank key.
  await page.keyboard.press('Escape');
  await page.keyboard.press('.');
  await page.waitForTimeout(150);
  assert.ok(await blank(), '. blanks outside the field');
  await context.close();
});

// A step that compares limiters draws its figure in the stage's place in a
// room: the four plots two by two, each whole on screen with its caption,
// on the smallest and the largest projector and in the audience window; the
// page computes none of it at the step (the lesson was read with it), and
// the clicker's PageDown goes on to the next step (no hidden run to play).
test('a figure step in a room: four plots side by side in the stage\'s place, drawn with no long task, PageDown moves on', async () => {
  const plots = (page) => page.$$eval('[data-testid="stage-figure"] figure', (fs) => fs.map((f) => {
    const c = f.querySelector('canvas').getBoundingClientRect();
    const cap = f.querySelector('figcaption').getBoundingClientRect();
    return { left: Math.round(c.left), top: Math.round(c.top), w: c.width, h: c.height, bottom: Math.max(c.bottom, cap.bottom), right: Math.max(c.right, cap.right),
      text: f.querySelector('figcaption').textContent, inked: (() => {
        const cv = f.querySelector('canvas'); const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
        let n = 0; for (let i = 3; i < d.length; i += 4 * 17) if (d[i] > 0) n++; return n;
      })() };
  }));
  const holds = async (page, label) => {
    const { width, height } = page.viewportSize();
    await page.waitForSelector('[data-testid="stage-figure"] canvas');
    await page.waitForTimeout(300);
    const p = await plots(page);
    assert.equal(p.length, 4, `${label}: four plots`);
    assert.deepEqual(p.map((x) => x.text.replace(/: [\d,]+ requeues.*/, '')), ['per-item only', 'bucket only', 'max-of (default to v0.22)', 'v0.23 default: priority queue, per-item only'], label);
    assert.match(p[0].text, /70,000 requeues in the first second/, label);
    // Two by two: two columns, two rows.
    assert.equal(new Set(p.map((x) => x.left)).size, 2, `${label}: two columns ${JSON.stringify(p)}`);
    assert.equal(new Set(p.map((x) => x.top)).size, 2, `${label}: two rows`);
    for (const x of p) {
      assert.ok(x.bottom <= height && x.right <= width, `${label}: ${x.text} whole on screen (${x.bottom} of ${height})`);
      assert.ok(x.h >= 90 && x.w >= 200, `${label}: ${x.text} drawn at ${x.w}x${x.h}`);
      assert.ok(x.inked > 100, `${label}: ${x.text} is drawn`);
    }
    assert.equal(await page.evaluate(() => scrollY), 0, `${label}: the page did not scroll`);
    assert.equal(await page.$('[data-testid="lesson"] [data-testid="compare"]'), null, `${label}: not also in the narration`);
  };
  const longTasks = () => { window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push(Math.round(e.duration)); }).observe({ type: 'longtask' }); };
  for (const [width, height] of [[800, 600], [1920, 1080]]) {
    // Entered as a clicker does (PageUp from the step after it), watching
    // the page's thread from before the press.
    const { page, context } = await open(browser, `${url}/?workshop=1&lesson=herd&step=5`, { viewport: { width, height } });
    await page.waitForSelector('[data-testid="lesson-step-title"]');
    await page.waitForTimeout(500);
    await page.evaluate(longTasks);
    while (!/Side by side/.test(await title(page))) { await page.keyboard.press('PageUp'); await page.waitForTimeout(200); }
    await holds(page, `${width}x${height}`);
    // No 10,000-key simulation on the page's thread when the step opens.
    const worst = Math.max(0, ...await page.evaluate(() => window.__lt));
    assert.ok(worst < 250, `${width}x${height}: a task of ${worst} ms while the figure was drawn`);
    if (width === 800) await shot(page, '36-room-figure-800x600');
    const next = await page.textContent('[data-testid="lesson-next"]');
    assert.doesNotMatch(next, /Play/, `${width}x${height}: Next says ${next}`);
    while (/Side by side/.test(await title(page))) { await page.keyboard.press('PageDown'); await page.waitForTimeout(300); }
    assert.match(await title(page), /Your turn/, `${width}x${height}: PageDown went on to the next step`);
    await context.close();
  }
  // The projector's own window, beside its presenter's.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const presenter = await context.newPage();
  await presenter.goto(`${url}/?presenter=room&lesson=herd&step=4`);
  await presenter.waitForSelector('[data-testid="lesson-step-title"]');
  const audience = await context.newPage();
  await audience.setViewportSize({ width: 1280, height: 720 });
  await audience.goto(`${url}/?audience=room`);
  await holds(audience, 'the audience window at 1280x720');
  await shot(audience, '36-room-figure-audience');
  await context.close();
});

// What a question counts is on the stage, not only in a panel below the
// fold: "?" while the room predicts, then the count as the scene plays,
// ending on the answer; and the box is there from the step's first frame,
// so nothing moves when it fills. Every counting question of every
// built-in lesson, by the clicker alone.
test('a counting question\'s count is on the stage: "?" until the guess, the answer once the scene has played', async () => {
  const { page, context } = await workshopPage(browser, url, { width: 1366, height: 768 });
  const counting = LESSONS.flatMap((id) => {
    const steps = fs.readFileSync(path.join(root, 'lessons', `${id}.md`), 'utf8').split(/^```step$/m).slice(1);
    return steps.flatMap((s, i) => (/"question"[\s\S]*"query"\s*:\s*\{\s*"(reconciles|num_requeues|requeues|results)"/.test(s) ? [[id, i + 1]] : []));
  });
  assert.ok(counting.length >= 10, `${counting.length} counting questions`);
  for (const [lesson, step] of counting) {
    await page.goto(`${url}/?workshop=1&lesson=${lesson}&step=${step}`);
    await page.waitForSelector('[data-testid="lesson-next"]');
    await page.waitForSelector('[data-testid="tally-value"]', { timeout: 10000 }).catch(() => assert.fail(`${lesson} ${step}: no count on the stage`));
    await page.waitForTimeout(300);
    // (Its box to half a pixel: a glyph's advance differs by hundredths.)
    const box = async () => page.evaluate(() => { const r = document.querySelector('[data-testid="tally"]').getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 2) / 2).join(','); });
    const first = await page.evaluate(() => { const r = document.querySelector('[data-testid="lesson"]').getBoundingClientRect(); return r.top; });
    const at = await box();
    let answer = null;
    for (let press = 0; press < 40; press++) {
      const state = await page.evaluate(() => ({
        press: document.querySelector('[data-testid="lesson-next"]')?.dataset.press,
        tally: document.querySelector('[data-testid="tally-value"]')?.textContent,
        answer: document.querySelector('[data-testid="answer-value"]')?.textContent,
      }));
      if (!state.answer) assert.equal(state.tally, '?', `${lesson} ${step}: the count shows before the guess`);
      answer = state.answer ?? answer;
      if (state.press === 'moved' || state.press === 'at-end') break;
      // (A press while the room watches would be kept, and move on.)
      if (state.press === 'dwelling') { await page.waitForTimeout(400); continue; }
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(350);
    }
    assert.ok(answer, `${lesson} ${step}: an answer was revealed`);
    const tally = await page.textContent('[data-testid="tally-value"]');
    assert.equal(tally, answer.match(/^[\d,]+/)[0], `${lesson} ${step}: the stage's count ends on the answer (${answer})`);
    assert.equal(await box(), at, `${lesson} ${step}: the count's box did not move`);
    assert.equal(await page.evaluate(() => document.querySelector('[data-testid="lesson"]').getBoundingClientRect().top), first);
  }
  await context.close();
});

// A trainer who dragged the timeline and left the focus on it still steps
// the scene by event with ← and →, and → comes back to where it was.
test('← and → on a focused timeline slider step by event, exact both ways', async () => {
  const { page, context } = await workshopPage(browser, url, { width: 1280, height: 720 });
  await page.goto(`${url}/?workshop=1&lesson=backoff&step=1`);
  await page.waitForSelector('[data-testid="lesson-next"]');
  for (let i = 0; i < 30; i++) {
    const press = await page.getAttribute('[data-testid="lesson-next"]', 'data-press');
    if (press === 'moved') break;
    if (press !== 'dwelling') await page.keyboard.press('PageDown');
    await page.waitForTimeout(400);
  }
  const now = () => page.evaluate(() => BigInt(document.querySelector('[data-stage]').dataset.now).toString());
  const end = await now();
  await page.focus('[data-scrub]');
  const back = [];
  for (let i = 0; i < 3; i++) { await page.keyboard.press('ArrowLeft'); await page.waitForTimeout(200); back.push(await now()); }
  // Each press lands on an earlier event, a millisecond or more apart (the
  // slider alone would have moved a nanosecond).
  for (const [a, b] of [[end, back[0]], [back[0], back[1]], [back[1], back[2]]]) {
    assert.ok(BigInt(a) - BigInt(b) >= 1000000n, `${a} → ${b}`);
  }
  for (let i = 0; i < 3; i++) { await page.keyboard.press('ArrowRight'); await page.waitForTimeout(200); }
  assert.equal(await now(), end, '→ comes back to where the scene had stopped');
  await context.close();
});
