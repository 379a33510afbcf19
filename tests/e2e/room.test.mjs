// The room, as properties: a trainer at a projector (every size from 800x600
// to 1920x1080) with a clicker that sends PageDown only, on every step of
// every built-in lesson and on a long lesson a trainer wrote, in a single
// window and in the projector's audience window beside its presenter's.
// After opening and after every press: (a) the control PageDown stands for
// is wholly on screen; (b) the lesson panel is whole, hides nothing, no text
// off screen; (c) the lanes the step is about are on screen; (d) no visible
// type under 16 px per 768 px of screen height; (e) a step that asks for a
// prediction holds the virtual clock until it is answered, and the clicker's
// `b` and `.` blank the screen without typing; (f) nothing shifts without
// input (under 0.02 between two presses); (g) PageDown alone reaches the end
// of the course; every press changes the panel, the stage or the clock
// within a second; every step opens at the same instant by the clicker, in
// either window and by its link. A screenshot of every view goes to
// target/e2e-screenshots/room/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, shots, root, workshopPage } from './harness.mjs';
import { measure, watchShift, takeShift, shifted, clockHolds, answers, blankKeys } from './room.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// Every projector from 800x600 to 1920x1080.
const SIZES = [[800, 600], [1024, 768], [1280, 720], [1366, 768], [1600, 900], [1920, 1080]];
// A course of some lessons only, while working on them (`WQ_ROOM_LESSONS=crossplane,herd`):
// the walks then check those lessons' steps alone.
const COURSE = process.env.WQ_ROOM_LESSONS ? `&lessons=${process.env.WQ_ROOM_LESSONS}` : '';
// Every step of every built-in lesson: one step block each.
const STEPS = fs.readdirSync(path.join(root, 'lessons')).filter((f) => f.endsWith('.md'))
  .filter((f) => !COURSE || process.env.WQ_ROOM_LESSONS.split(',').includes(f.replace(/\.md$/, '')))
  .reduce((n, f) => n + (fs.readFileSync(path.join(root, 'lessons', f), 'utf8').match(/^```step$/gm) || []).length, 0);
const dir = path.join(shots, 'room');

// Where each step opened in the walks (lesson / step title -> ns), to set
// against the same step opened by its link.
const reachedAt = new Map();

// PageDown from where the page is until the course ends, checking every view.
async function walk(page, label, { maxPresses = 600 } = {}) {
  const { width, height } = page.viewportSize();
  const opened = new Map();
  // The back row's floor: 16 px per 768 px of screen height (down to a
  // 5:4 screen; only a narrower one may hold it to its width).
  const floor = 16 * Math.min(height / 768, width / 960) - 0.25;
  const blanked = new Set();
  fs.mkdirSync(dir, { recursive: true });
  await watchShift(page);
  const faults = [];
  const seen = new Set();
  let views = 0, last = '', same = 0, press = '', worst = 0;
  for (let n = 0; n <= maxPresses; n++) {
    await page.waitForTimeout(120);
    const m = await measure(page);
    const where = `${m.lesson} / ${m.step} [${m.press}]`;
    if (m.step) {
      const key = `${m.lesson} / ${m.step.replace(/page \d+ of \d+$/, '')}`;
      seen.add(key);
      // The instant a step opens at, reached by the clicker (the first view
      // of it, before any press in it).
      if (!opened.has(key)) opened.set(key, m.now);
    }
    if (m.asking) {
      const c = await clockHolds(page, 1000);
      if (!c.held) m.problems.push(`the clock moved ${c.from} -> ${c.to} ns while the question was open`);
      // A clicker's blank-screen keys, once on every prediction.
      if (!blanked.has(where)) {
        blanked.add(where);
        m.problems.push(...await blankKeys(page));
        await takeShift(page);
      }
    }
    const moved = await shifted(page);
    const shift = await takeShift(page);
    if (shift >= 0.02) m.problems.push(`layout shift ${shift.toFixed(3)} without input (${moved})`);
    worst = Math.max(worst, shift);
    if (m.smallest < floor) m.problems.push(`type at ${m.smallest.toFixed(1)}px under ${floor.toFixed(1)}px: ${m.smallestWhere}`);
    if (m.scrollY !== 0) m.problems.push(`the page scrolled to ${m.scrollY}`);
    for (const p of m.problems) faults.push(`${where}: ${p}`);
    await page.screenshot({ path: path.join(dir, `${label}-${String(views).padStart(3, '0')}.png`) });
    views += 1;
    press = m.press;
    // The end of the course holds (an audience window between two lessons
    // may show no lesson for a frame while its presenter moves on).
    if (press === 'at-end') {
      await page.waitForTimeout(1500);
      if ((await measure(page)).press === 'at-end') break;
      continue;
    }
    // A step waits on its scene: the press says "dwelling" until it may go on.
    same = where === last ? same + 1 : 0;
    last = where;
    if (same > 30) { faults.push(`${where}: the clicker is stuck`); break; }
    // Every press answers within a second: the panel, the stage or the clock.
    const a = await answers(page, 'PageDown');
    if (!a.changed) faults.push(`${where}: PageDown changed nothing within a second`);
    // (At least 350 ms after the press was seen: the next is a new press,
    // not a nervous double one, however late a busy machine handled this.)
    await page.waitForTimeout(Math.max(350, (press === 'dwelling' ? 700 : 450) - a.ms));
    if (press === 'dwelling') {
      // A press during the dwell is kept and carried out when the dwell
      // ends: what moves then is that press's doing, so it is set aside
      // like any press's (the browser counts input only 500 ms back).
      await page.waitForFunction(() => document.querySelector('[data-testid="lesson-next"]')?.dataset.press !== 'dwelling'
        || !/Moving on/.test(document.querySelector('[data-testid="lesson-next"]')?.textContent ?? ''), null, { timeout: 5000 }).catch(() => {});
      await page.waitForTimeout(150);
      await takeShift(page);
    }
  }
  console.log(`${label}: ${views} views, the largest layout shift between two presses ${worst.toFixed(3)}`);
  for (const [key, now] of opened) {
    if (reachedAt.has(key) && reachedAt.get(key) !== now) faults.push(`${key}: opened at ${now} ns here, at ${reachedAt.get(key)} ns in another walk`);
    reachedAt.set(key, now);
  }
  return { faults, views, seen, press };
}

// One walk of the whole course in a single window at `width`x`height`.
async function singleWindow(width, height) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (['error', 'warning'].includes(m.type())) errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  const first = process.env.WQ_ROOM_LESSONS?.split(',')[0] ?? 'sets';
  await page.goto(`${url}/?workshop=1&lesson=${first}&step=1${COURSE}`);
  await page.waitForSelector('[data-testid="lesson-step-title"]');
  const out = await walk(page, `walk-${width}x${height}`);
  await context.close();
  return { ...out, errors };
}

// The same walk in the projector's audience window, its presenter's
// window beside it (the clicker pressed on the projector's).
async function audienceWindow(width, height) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  const p = await context.newPage();
  p.on('pageerror', (e) => errors.push(`presenter: ${e}`));
  const first = process.env.WQ_ROOM_LESSONS?.split(',')[0] ?? 'sets';
  await p.goto(`${url}/?presenter=room&lesson=${first}&step=1${COURSE}`);
  await p.waitForSelector('[data-testid="lesson-step-title"]');
  const a = await context.newPage();
  a.on('console', (m) => { if (['error', 'warning'].includes(m.type())) errors.push(`audience: ${m.text()}`); });
  a.on('pageerror', (e) => errors.push(`audience: ${e}`));
  await a.setViewportSize({ width, height });
  await a.goto(`${url}/?audience=room`);
  await a.waitForSelector('[data-testid="lesson-step-title"]');
  const out = await walk(a, `audience-${width}x${height}`);
  await context.close();
  return { ...out, errors };
}

function holds(label, { faults, views, seen, press, errors }) {
  console.log(`${label}: ${views} views over ${seen.size} steps`);
  assert.equal(press, 'at-end', `${label}: PageDown reached the end of the course (${seen.size} steps seen)`);
  assert.equal(seen.size, STEPS, `${label}: every step was visited: ${[...seen].join(' | ')}`);
  assert.deepEqual(faults, [], label);
  assert.deepEqual(errors, [], label);
}

// The test command walks the smallest projector in a single window and the
// largest in the projector's audience window (its presenter's window beside
// it, the clicker pressed on the projector's), at once: both windows, both
// ends of the range (the same layout drawn at 0.78 and 1.41 of 1024x768).
// `WQ_ROOM_SIZES=all` walks all six sizes in both windows, as before
// resolving a change to the room. Two walks at a time (each is mostly
// waiting for the page).
// `WQ_ROOM_WALKS=audience:1600x900,single:1366x768` walks the ones named.
const named = (process.env.WQ_ROOM_WALKS ?? '').split(',').filter(Boolean)
  .map((w) => { const [how, size] = w.split(':'); return [how, size.split('x').map(Number)]; });
const WALKS = named.length ? named : process.env.WQ_ROOM_SIZES === 'all'
  ? [...SIZES.map((s) => ['single', s]), ...SIZES.map((s) => ['audience', s])]
  : [['single', [800, 600]], ['audience', [1920, 1080]]];
const name = ([how, [w, h]]) => `${how === 'single' ? 'a single window' : 'the audience window'} at ${w}x${h}`;
for (let i = 0; i < WALKS.length; i += 2) {
  const pair = WALKS.slice(i, i + 2);
  test(`a workshop in ${pair.map(name).join(' and ')}: PageDown alone walks every lesson, and every view holds (a)-(g), the type floor, blank keys and answered presses`, async () => {
    const walks = await Promise.all(pair.map(([how, [w, h]]) => (how === 'single' ? singleWindow : audienceWindow)(w, h)));
    walks.forEach((w, k) => holds(name(pair[k]), w));
  });
}

// However a question step is entered (a link, a reload, PageUp from the
// step after it, PageDown from the lesson before), the clock holds until
// the room has predicted.
test('every step opens at the instant the clicker reached it at, and every question holds the clock, however its step was entered', async () => {
  const moved = [];
  let asked = 0;
  const ids = fs.readdirSync(path.join(root, 'lessons')).filter((f) => f.endsWith('.md')).map((f) => f.replace(/\.md$/, ''))
    .filter((id) => !COURSE || process.env.WQ_ROOM_LESSONS.split(',').includes(id));
  const instants = [];
  let compared = 0;
  // Two windows at a time, each taking the next lesson (each mostly waits).
  const queue = [...ids];
  const worker = async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    for (let id = queue.shift(); id; id = queue.shift()) {
      const steps = (fs.readFileSync(path.join(root, 'lessons', `${id}.md`), 'utf8').match(/^```step$/gm) || []).length;
      for (let step = 1; step <= steps; step++) {
        // Opened by its link, the step is at the instant the clicker reached
        // it at in the walks above, to the nanosecond.
        await page.goto(`${url}/?workshop=1&lesson=${id}&step=${step}`);
        await page.waitForSelector('[data-testid="lesson-step-title"]');
        const m = await measure(page);
        const key = `${m.lesson} / ${m.step.replace(/page \d+ of \d+$/, '')}`;
        if (reachedAt.has(key)) {
          compared += 1;
          if (reachedAt.get(key) !== m.now) instants.push(`${key}: ${m.now} ns by its link, ${reachedAt.get(key)} ns by the clicker`);
        }
        const link = `${url}/?workshop=1&autoplay=1&lesson=${id}&step=${step}`;
        await page.goto(link);
        await page.waitForSelector('[data-testid="lesson-step-title"]');
        if (!(await page.$('[data-testid="lesson"] .ask, [data-testid="guess"]'))) continue;
        asked += 1;
        for (const how of ['a link', 'a reload', 'PageUp from the next step']) {
          if (how === 'a reload') { await page.reload(); await page.waitForSelector('[data-testid="lesson-step-title"]'); }
          if (how === 'PageUp from the next step') {
            if (step === steps) continue;
            await page.goto(`${url}/?workshop=1&lesson=${id}&step=${step + 1}`);
            await page.waitForSelector('[data-testid="lesson-step-title"]');
            // PageUp turns the next step's pages back first, then enters this
            // step (the prediction's field shows with the question's page).
            const here = await page.textContent('[data-testid="lesson-step-title"]');
            for (let i = 0; i < 20 && (await page.textContent('[data-testid="lesson-step-title"]')) === here; i++) {
              await page.keyboard.press('PageUp');
              await page.waitForTimeout(100);
            }
          }
          const c = await clockHolds(page, 800);
          if (!c.held) moved.push(`${id} step ${step} entered by ${how}: ${c.from} -> ${c.to}`);
        }
      }
    }
    await context.close();
  };
  await Promise.all([worker(), worker()]);
  assert.ok(asked >= 15 || COURSE, `${asked} question steps checked`);
  assert.deepEqual(moved, []);
  assert.equal(compared, STEPS, 'every step was opened by its link and by the clicker');
  assert.deepEqual(instants, []);
});

// A trainer's own lesson: long narration (a paragraph longer than any panel
// among them) and many keys; the clicker pages through it, nothing is cut.
function longLesson() {
  const para = (n) => `Paragraph ${n}. ` + 'A key that fails is handed to the rate limiter, which answers with a delay; the queue holds the key in its waiting heap until then, and a second event for the same key while it waits changes nothing. '.repeat(2);
  const huge = 'One very long paragraph follows, as trainers sometimes write them. ' + 'Every failure doubles the delay from five milliseconds, and the bucket behind it lets ten keys a second through once its hundred tokens are spent. '.repeat(9);
  const block = (json) => '```step\n' + JSON.stringify(json, null, 1) + '\n```\n';
  const scenario = {
    version: 2, name: 'long', controllers: [{ controller: { reconcile_ns: '20ms', workers: 2 },
      default_script: { type: 'fail_then_succeed', failures: 2 }, limiter: { type: 'default_controller' } }],
  };
  return `# A trainer's long lesson\n\n${para(0)}\n\n## Many keys, many words\n\n${[1, 2, 3, 4, 5].map(para).join('\n\n')}\n\n${huge}\n\n`
    + block({ focus: { lanes: ['waiting', 'bucket'] },
      setup: { scenario, inputs: [{ do: { input: 'add_many', count: 400, prefix: 'tenant-a/object-' } }] },
      question: { ask: 'When has every object converged (within 10%)?', tolerance: 0.1, query: { converged_at: { until: '10m' } } } })
    + `\n## And one more\n\n${para(6)}\n\n${para(7)}\n\n` + block({ focus: { lanes: ['queue', 'workers'] } });
}

// Both ends of the range at once (each walk mostly waits for the page).
test('a trainer\'s long lesson with many keys at 800x600 and 1920x1080: paged by the clicker, nothing cut', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wq-room-')), 'long-lesson.md');
  fs.writeFileSync(file, longLesson());
  await Promise.all([[800, 600], [1920, 1080]].map(async ([width, height]) => {
    const { context, page, errors } = await workshopPage(browser, url, { width, height });
    await page.setInputFiles('[data-testid="lesson-upload"]', file);
    await page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 20000 });
    assert.ok(await page.$('[data-testid="lesson-page"]'), `${width}x${height}: the long narration is paged`);
    const { faults, views, seen, press } = await walk(page, `long-${width}x${height}`, { maxPresses: 80 });
    console.log(`long lesson at ${width}x${height}: ${views} views over ${seen.size} steps`);
    assert.equal(press, 'at-end', `${width}x${height}`);
    assert.ok(seen.size >= 2, `${width}x${height}: both steps seen: ${[...seen]}`);
    assert.deepEqual(faults, [], `${width}x${height}`);
    assert.deepEqual(errors, [], `${width}x${height}`);
    await context.close();
  }));
});
