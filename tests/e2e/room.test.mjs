// The room, as properties: a trainer at a projector (1024x768, 1280x720)
// with a clicker that sends PageDown only, on every step of every built-in
// lesson and on a long lesson a trainer wrote. After opening and after every
// press: (a) the control PageDown stands for is wholly on screen; (b) the
// lesson panel is whole, hides nothing, no text off screen; (c) the lanes the
// step is about are on screen; (d) no visible type under 16 px; (e) a step
// that asks for a prediction holds the virtual clock until it is answered;
// (f) nothing shifts without input (under 0.02 between two presses); (g)
// PageDown alone reaches the end of the course. Every property is asserted
// on every view. A screenshot of every view goes to
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

// PageDown from where the page is until the course ends, checking every view.
async function walk(page, label, { maxPresses = 600 } = {}) {
  const { width, height } = page.viewportSize();
  // The back row's floor: 16 px per 768 px of screen height.
  const floor = 16 * Math.min(height / 768, width / 1024) - 0.25;
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
    if (m.step) seen.add(`${m.lesson} / ${m.step.replace(/page \d+ of \d+$/, '')}`);
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
    await page.waitForTimeout(Math.max(0, (press === 'dwelling' ? 700 : 450) - a.ms));
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

// The test command walks the smallest and the largest projector (the same
// layout drawn at 0.78 and 1.41 of 1024x768); `WQ_ROOM_SIZES=all` walks all
// six, as before resolving a change to the room. Two walks at a time (each is
// mostly waiting for the page).
const WALKED = process.env.WQ_ROOM_SIZES === 'all' ? SIZES : [[800, 600], [1920, 1080]];
for (let i = 0; i < WALKED.length; i += 2) {
  const pair = WALKED.slice(i, i + 2);
  test(`a workshop at ${pair.map(([w, h]) => `${w}x${h}`).join(' and ')}: PageDown alone walks every lesson, and every view holds (a)-(g), the type floor, blank keys and answered presses`, async () => {
    const walks = await Promise.all(pair.map(([w, h]) => singleWindow(w, h)));
    walks.forEach((w, k) => holds(`${pair[k][0]}x${pair[k][1]}`, w));
  });
}

// The projector's audience window, walked the same way, at the two ends
// (`WQ_ROOM_AUDIENCE=1`): not yet part of the test command, as its
// windows' round trip still shifts lanes and answers slowly (issue 46).
if (process.env.WQ_ROOM_AUDIENCE) {
  test('the audience window at 800x600 and 1920x1080: the same walk holds on the projector', async () => {
    const sizes = [[800, 600], [1920, 1080]];
    const walks = await Promise.all(sizes.map(([w, h]) => audienceWindow(w, h)));
    walks.forEach((w, k) => holds(`audience ${sizes[k][0]}x${sizes[k][1]}`, w));
  });
}

// However a question step is entered (a link, a reload, PageUp from the
// step after it, PageDown from the lesson before), the clock holds until
// the room has predicted.
test('every question holds the clock, however its step was entered', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  const moved = [];
  let asked = 0;
  const ids = ['sets', 'results', 'backoff', 'herd', 'max-of', 'forget-done', 'fast-slow', 'crossplane', 'v023', 'provider'];
  for (const id of ids) {
    await page.goto(`${url}/?workshop=1&autoplay=1&lesson=${id}&step=1`);
    await page.waitForSelector('[data-testid="lesson-step-title"]');
    const steps = Number((await page.textContent('[data-testid="lesson"] h2 small')).match(/of (\d+)/)[1]);
    for (let step = 1; step <= steps; step++) {
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
  assert.ok(asked >= 15, `${asked} question steps checked`);
  assert.deepEqual(moved, []);
  await context.close();
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

for (const [width, height] of [[800, 600], [1920, 1080]]) {
  test(`a trainer's long lesson with many keys at ${width}x${height}: paged by the clicker, nothing cut`, async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wq-room-')), 'long-lesson.md');
    fs.writeFileSync(file, longLesson());
    const { context, page, errors } = await workshopPage(browser, url, { width, height });
    await page.setInputFiles('[data-testid="lesson-upload"]', file);
    await page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 20000 });
    assert.ok(await page.$('[data-testid="lesson-page"]'), 'the long narration is paged');
    const { faults, views, seen, press } = await walk(page, `long-${width}x${height}`, { maxPresses: 80 });
    console.log(`long lesson at ${width}x${height}: ${views} views over ${seen.size} steps`);
    assert.equal(press, 'at-end');
    assert.ok(seen.size >= 2, `both steps seen: ${[...seen]}`);
    assert.deepEqual(faults, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
