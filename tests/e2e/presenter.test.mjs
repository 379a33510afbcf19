// A workshop on two screens: the trainer's presenter window and the
// projector's audience window, in one browser, kept in step over a
// BroadcastChannel. Each test drives them as a trainer and a room would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, shot } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// Two windows of one context (they share the channel), each failing its
// test on a console error or a request off this site.
async function pair({ lesson = 'backoff', step = 1, room = '1', presenter = { width: 1440, height: 900 }, audience = { width: 1024, height: 768 } } = {}) {
  const context = await browser.newContext({ viewport: presenter });
  const problems = [];
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (['127.0.0.1', 'localhost'].includes(u.hostname) || u.protocol === 'data:' || u.protocol === 'blob:') return route.continue();
    problems.push(`off-site: ${u.href}`);
    return route.abort();
  });
  const watch = (page, name) => {
    page.on('console', (m) => { if (['error', 'warning'].includes(m.type())) problems.push(`${name}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`${name}: ${e}`));
  };
  const p = await context.newPage();
  watch(p, 'presenter');
  await p.goto(`${url}/?presenter=${room}&lesson=${lesson}&step=${step}`);
  await p.waitForSelector('[data-testid="presenter"]');
  await p.waitForSelector('[data-testid="lesson-step-title"]');
  const a = await context.newPage();
  watch(a, 'audience');
  await a.setViewportSize(audience);
  await a.goto(`${url}/?audience=${room}`);
  await a.waitForSelector('[data-testid="audience"]');
  return { context, p, a, problems };
}

// One press of the clicker, and a moment for the window to show it.
async function pressClicker(page, ms = 400) {
  await page.keyboard.press('PageDown');
  await page.waitForTimeout(ms);
}

// The end of a test: neither window had a problem; both close.
async function closeClean(context, problems) {
  assert.deepEqual(problems, []);
  await context.close();
}

const title = (page) => page.textContent('[data-testid="lesson-step-title"]');
// What the next press does, as the lesson panel says (`data-press`).
const pressState = (page) => page.evaluate(() => document.querySelector('[data-testid="lesson-next"]')?.dataset.press);
// What the Next button says now: its press, its words, and the step's title.
// A press that did something changes one of them.
const NEXT_SAYS = `(() => {
  const b = document.querySelector('[data-testid="lesson-next"]');
  return b?.dataset.press + '|' + b?.textContent + '|' + document.querySelector('[data-testid="lesson-step-title"]')?.textContent;
})()`;
// One press of the clicker, waiting until the window shows it, then as
// long as a trainer's hand would before the next. (A fixed pause from the
// key alone failed on a busy machine: the press was handled late, and the
// next one came within the 300 ms that count as a nervous double press.)
async function pressSeen(page) {
  const before = await page.evaluate(NEXT_SAYS);
  await page.keyboard.press('PageDown');
  await page.waitForFunction(`${NEXT_SAYS} !== ${JSON.stringify(before)}`, null, { timeout: 10000 });
  await page.waitForTimeout(400);
}
// The clicker turns the narration's pages (on a small projector a step's
// words can take two) until the step asks its question.
async function pageThrough(page) {
  for (let i = 0; i < 10 && (await pressState(page)) === 'page'; i++) await pressSeen(page);
}
// The audience window has no transport: its instant is the stage's clock.
const instant = (page) => page.evaluate(() => document.querySelector('[data-stage]')?.getAttribute('data-now'));

async function sameStep(p, a, timeout = 3000) {
  const want = await title(p);
  await a.waitForFunction((want) => document.querySelector('[data-testid="lesson-step-title"]')?.textContent === want, want, { timeout });
  return want;
}

test('the audience window opens on the presenter\'s step, shows no notes, and PageDown in the presenter moves both', async () => {
  const { context, p, a, problems } = await pair();
  const first = await sameStep(p, a);
  // The notes and the expected answer are the presenter's alone.
  const notes = await p.textContent('[data-testid="presenter-notes"]');
  assert.match(notes, /\S{10,}/);
  assert.match(await p.textContent('[data-testid="presenter-answer"]'), /Answer\s*7 requeues/);
  assert.match(await p.textContent('[data-testid="presenter-next"]'), /Step 2: The long tail/);
  const words = notes.trim().split(/\s+/).slice(0, 6).join(' ');
  assert.ok(!(await a.textContent('body')).includes(words), 'the notes are not in the audience window');
  assert.equal(await a.locator('[data-testid="presenter"], .toolbar, [data-testid="settings"]').count(), 0, 'nothing but the stage and the narration');
  await shot(p, 'presenter-1440');
  await shot(a, 'audience-1024');
  // The clicker in the presenter: the press opens the prediction in both
  // (within 100 ms of each other), then reveals, plays, and moves on.
  await pageThrough(p);
  const t0 = Date.now();
  await p.keyboard.press('PageDown');
  await a.waitForFunction(() => document.querySelector('[data-testid="lesson-next"]')?.dataset.press === 'revealed', null, { timeout: 2000 });
  const lag = Date.now() - t0;
  assert.ok(lag < 1000, `the audience followed in ${lag} ms`);
  for (let i = 0; i < 30 && (await title(p)) === first; i++) {
    await pressClicker(p);
  }
  assert.notEqual(await title(p), first, 'the presenter moved on');
  assert.equal(await sameStep(p, a), await title(p));
  await closeClean(context, problems);
});

test('a clicker pressed in the audience window moves the presenter too', async () => {
  const { context, p, a, problems } = await pair({ lesson: 'sets', step: 1 });
  await sameStep(p, a);
  const first = await title(a);
  for (let i = 0; i < 30 && (await title(p)) === first; i++) {
    await pressClicker(a);
  }
  assert.notEqual(await title(p), first, 'the presenter moved on from the audience window');
  await sameStep(p, a);
  await closeClean(context, problems);
});

test('an outcome chosen in the audience window shows in the presenter\'s', async () => {
  // The results lesson waits for the room to choose what a reconcile returns.
  const { context, p, a, problems } = await pair({ lesson: 'results', step: 1 });
  await sameStep(p, a);
  // Play the step from the presenter until a reconcile waits for a decision.
  for (let i = 0; i < 10; i++) {
    if (await a.locator('[data-testid="outcome-error"]').count()) break;
    await pressClicker(p, 500);
  }
  await a.waitForSelector('[data-testid="outcome-error"]', { timeout: 10000 });
  await p.waitForSelector('[data-testid="outcome-error"]', { timeout: 3000 });
  await a.locator('[data-testid="outcome-error"]').first().click();
  // The presenter carried it out: its log has the error.
  await p.waitForFunction(() => !document.querySelector('[data-testid="outcome-error"]'), null, { timeout: 3000 });
  await a.waitForFunction(() => !document.querySelector('[data-testid="outcome-error"]'), null, { timeout: 3000 });
  await closeClean(context, problems);
});

test('a reloaded audience window comes back to the same step and instant; closing it loses nothing', async () => {
  const { context, p, a, problems } = await pair({ lesson: 'backoff', step: 1 });
  await sameStep(p, a);
  // The clicker: ask, reveal without a guess, play a little; then pause.
  await pageThrough(p);
  for (const press of ['asked', 'revealed', 'played']) {
    await p.waitForFunction((press) => document.querySelector('[data-testid="lesson-next"]')?.dataset.press === press, press, { timeout: 5000 });
    await pressSeen(p);
  }
  await p.waitForFunction(() => Number(document.querySelector('[data-stage]')?.dataset.now) > 0);
  await p.waitForTimeout(1000);
  if ((await p.getAttribute('[data-testid="play"]', 'aria-label')) === 'Pause') await p.click('[data-testid="play"]');
  await p.waitForTimeout(300);
  const at = Number(await instant(p));
  assert.ok(at > 0, 'the step played');
  await a.reload();
  await a.waitForSelector('[data-testid="audience"]');
  await sameStep(p, a);
  await a.waitForFunction((at) => Number(document.querySelector('[data-stage]')?.dataset.now) === at, at, { timeout: 3000 });
  await a.close();
  assert.equal(Number(await instant(p)), at, 'the presenter kept its instant');
  // A second projector's window opens in step too.
  const b = await context.newPage();
  await b.goto(`${url}/?audience=1`);
  await b.waitForSelector('[data-testid="audience"]');
  await sameStep(p, b);
  await closeClean(context, problems);
});

test('a reloaded presenter window keeps the step, the room\'s guess, the revealed answer and the clock', async () => {
  const { context, p, a, problems } = await pair({ lesson: 'v023', step: 1 });
  await sameStep(p, a);
  // The clicker opens the prediction; the trainer types the room's guess.
  await pressSeen(p);
  await p.fill('[data-testid="guess"]', '2');
  await p.keyboard.press('PageDown');
  // (On the projector the answer may sit on the narration's next page.)
  await a.waitForSelector('[data-testid="answer"]', { state: 'attached' });
  const revealed = await a.textContent('[data-testid="answer"]');
  await p.waitForTimeout(1200);
  const clockBefore = await p.textContent('[data-testid="presenter-clock"]');
  await p.reload();
  await p.waitForSelector('[data-testid="presenter"]');
  await p.waitForFunction(() => /The room said: 2/.test(document.querySelector('[data-testid="presenter-answer"]')?.textContent ?? ''), null, { timeout: 3000 });
  await p.waitForSelector('[data-testid="answer"]', { state: 'attached' });
  await p.waitForTimeout(500);
  assert.equal(await a.textContent('[data-testid="answer"]'), revealed, 'the room still sees the answer');
  const [m, s] = (await p.textContent('[data-testid="presenter-clock"]')).split(':').map(Number);
  const [m0, s0] = clockBefore.split(':').map(Number);
  assert.ok(m * 60 + s >= m0 * 60 + s0, `the clock ran on: ${clockBefore} then ${m}:${s}`);
  await closeClean(context, problems);
});

test('a course: the presenter names the next lesson on a last step, and both windows end together', async () => {
  const { context, p, a, problems } = await pair({ lesson: 'max-of', step: 1, room: 'course' });
  // (The course is in the presenter's address: the audience window learns it.)
  await p.goto(`${url}/?presenter=course&lessons=max-of,fast-slow`);
  await p.waitForSelector('[data-testid="presenter-next"]');
  assert.match(await p.textContent('[data-testid="presenter-next"]'), /Next lesson: .*fast|Next lesson: .*Fast/i);
  // Both windows say where the room is in the course.
  assert.equal(await p.textContent('[data-testid="course-at"]'), ' · lesson 1 of 2');
  await a.waitForFunction(() => document.querySelector('[data-testid="course-at"]')?.textContent === ' · lesson 1 of 2', null, { timeout: 3000 });
  // Walk to the end of the course with the clicker.
  for (let i = 0; i < 80 && !(await p.locator('[data-testid="lesson-at-end"]').count()); i++) {
    await pressClicker(p, 350);
  }
  assert.equal(await p.locator('[data-testid="lesson-at-end"]').count(), 1, 'the presenter reached the end');
  await a.waitForSelector('[data-testid="lesson-at-end"]', { timeout: 3000 });
  assert.equal(await p.textContent('[data-testid="course-at"]'), ' · lesson 2 of 2');
  assert.match(await p.textContent('[data-testid="presenter-next"]'), /end of the course/);
  await closeClean(context, problems);
});

test('Presenter view in workshop mode opens the projector\'s window, in step, at projector sizes', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  context.on('page', (pg) => pg.on('pageerror', (e) => problems.push(String(e))));
  const p = await context.newPage();
  p.on('pageerror', (e) => problems.push(String(e)));
  await p.goto(`${url}/?workshop=1&lesson=provider&step=2`);
  await p.waitForSelector('[data-testid="lesson-step-title"]');
  const [a] = await Promise.all([context.waitForEvent('page'), p.click('[data-testid="present"]')]);
  await a.waitForSelector('[data-testid="audience"]');
  await p.waitForSelector('[data-testid="presenter"]');
  assert.match(p.url(), /presenter=1/, 'a reload keeps the presenter\'s view');
  assert.doesNotMatch(p.url(), /workshop=1/);
  await sameStep(p, a);
  for (const size of [{ width: 1024, height: 768 }, { width: 1280, height: 720 }]) {
    await a.setViewportSize(size);
    await a.waitForTimeout(300);
    // Nothing of the step is off the projector's screen: the lesson's
    // buttons are in view, and the page does not scroll sideways.
    const box = await a.locator('[data-testid="lesson-next"]').boundingBox();
    assert.ok(box && box.y + box.height <= size.height && box.x + box.width <= size.width, `Next in view at ${size.width}x${size.height}`);
    assert.ok(await a.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll');
    assert.ok(await a.evaluate(() => document.documentElement.scrollHeight <= innerHeight), `no scrollbar at ${size.width}x${size.height}`);
    assert.equal(await a.locator('[aria-label="Close the lesson"]').count(), 0);
    // The main button counts only pages this window has, though it is
    // told to turn by a presenter whose narrower panel has more.
    const said = await a.textContent('[data-testid="lesson-next"]');
    const [, at, of] = said.match(/\((\d+)\/(\d+)\)/) || [0, 0, 0];
    assert.ok(Number(at) <= Number(of), `"${said}" at ${size.width}x${size.height}`);
    await shot(a, `audience-provider-${size.width}x${size.height}`);
  }
  await shot(p, 'presenter-provider-1280');
  await closeClean(context, problems);
});

test('a guess typed on the projector is the one revealed; a presenter reloaded mid-scene still stops where the step waits', async () => {
  const { context, p, a, problems } = await pair({ lesson: 'forget-done', step: 1 });
  await sameStep(p, a);
  // The clicker in the projector's window opens the prediction there.
  await a.bringToFront();
  await a.keyboard.press('PageDown');
  await a.waitForFunction(() => document.querySelector('[data-testid="lesson-next"]')?.dataset.press === 'revealed');
  await a.fill('[data-testid="guess"]', '6');
  await a.keyboard.press('PageDown');
  await p.waitForFunction(() => /The room said: 6/.test(document.querySelector('[data-testid="presenter-answer"]')?.textContent ?? ''), null, { timeout: 3000 });
  // Play the step from the presenter's own button, reload the presenter
  // while it plays: the step still pauses where it waits.
  await p.bringToFront();
  await p.waitForFunction(() => document.querySelector('[data-testid="presenter-next-press"]')?.dataset.press === 'played');
  // (A press right after the reveal is a nervous double press: a moment.)
  await p.waitForTimeout(500);
  await p.click('[data-testid="presenter-next-press"]');
  await p.waitForFunction(() => Number(document.querySelector('[data-stage]')?.dataset.now) > 0);
  await p.waitForTimeout(150);
  await p.reload();
  await p.waitForSelector('[data-testid="presenter"]');
  // It took the playing scene back from the projector's window...
  await p.waitForFunction(() => document.querySelector('[data-testid="play"]')?.getAttribute('aria-label') === 'Pause' && Number(document.querySelector('[data-stage]')?.dataset.now) > 0, null, { timeout: 5000 });
  // ...and pauses where the step waits (slow motion near the events).
  await p.waitForFunction(() => document.querySelector('[data-testid="play"]')?.getAttribute('aria-label') === 'Play', null, { timeout: 30000 });
  await p.waitForTimeout(600);
  const stopped = Number(await instant(p));
  assert.ok(stopped > 0 && stopped < 1e9, `the step paused where it waits, at ${stopped} ns`);
  await a.waitForFunction((t) => Number(document.querySelector('[data-stage]')?.dataset.now) === t, stopped, { timeout: 3000 });
  await closeClean(context, problems);
});

test('notes never show in an embed of a lesson', async () => {
  const context = await browser.newContext({ viewport: { width: 700, height: 520 } });
  const page = await context.newPage();
  await page.goto(`${url}/?embed=1&lesson=backoff&step=1`);
  await page.waitForSelector('[data-testid="lesson-step-title"]');
  const text = await page.textContent('body');
  assert.ok(!/Common wrong guess|Ask:/.test(text), 'no speaker notes in the embed');
  assert.equal(await page.locator('[data-testid="presenter"]').count(), 0);
  await context.close();
});

test('b in the presenter\'s window blanks the projector and leaves the presenter its notes', async () => {
  const { context, p, a, problems } = await pair({ lesson: 'backoff', step: 1, room: 'blank' });
  await p.keyboard.press('b');
  await a.waitForSelector('[data-testid="blank-screen"]', { timeout: 3000 });
  assert.equal(await p.locator('[data-testid="blank-screen"]').count(), 0, 'the presenter\'s window does not go black');
  assert.match(await p.textContent('[data-testid="projector-blank"]'), /projector is blank/);
  assert.ok(await p.isVisible('[data-testid="presenter"]'), 'its notes stay in view');
  await p.keyboard.press('b');
  await a.waitForFunction(() => !document.querySelector('[data-testid="blank-screen"]'), null, { timeout: 3000 });
  assert.equal(await p.locator('[data-testid="projector-blank"]').count(), 0);
  await closeClean(context, problems);
});

test('the version switch in the presenter\'s window reaches the projector, with the comparison both show', async () => {
  const { context, p, a, problems } = await pair({ lesson: 'v023', step: 1 });
  await sameStep(p, a);
  const on = (page) => page.evaluate(() => document.querySelector('[data-testid="queue-client-go"][aria-checked="true"]') ? 'client-go' : 'priority');
  assert.equal(await on(a), await on(p));
  const other = (await on(p)) === 'priority' ? 'client-go' : 'priority';
  await p.locator(`[data-testid="queue-${other}"]`).first().click();
  await a.waitForFunction((want) => (document.querySelector('[data-testid="queue-client-go"][aria-checked="true"]') ? 'client-go' : 'priority') === want, other, { timeout: 5000 });
  assert.equal(await on(p), other);
  // The comparison of the two runs, in both windows.
  await a.waitForSelector('[data-testid="version-compare"]', { timeout: 5000 });
  assert.equal(await p.locator('[data-testid="version-compare"]').count(), 1);
  await closeClean(context, problems);
});
