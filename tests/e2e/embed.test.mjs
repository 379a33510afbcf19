// An embed is a guest in someone's page. Every step of every built-in lesson,
// embedded as the README's snippet does (a frame 640 px tall) in a 700 px
// blog column, a tablet's and three phones' posts (reading.mjs): readable
// narration, nothing under 12 px, the lesson panel whole, its Next on
// screen, no control cut, nothing spills below the frame, nothing shifts.
// And a blog post with its embeds, read on a slow link
// while they load: the text never moves, the host keeps the keyboard, Space
// scrolls the post, a tap inside an embed never scrolls it, at / and under
// /playground/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, shots, root } from './harness.mjs';
import { createRequire } from 'node:module';
import { clipped } from './room.mjs';
import { walk, frameOf, deviceViewports, LESSONS } from './reading.mjs';

const { devices } = createRequire(import.meta.url)('playwright-core');

let browser;
before(async () => { browser = await launch(); });
// Every server this file starts is closed when it ends, however a test
// ended (an open one keeps the test runner waiting for ever).
const servers = [];
const serveHere = async (...args) => { const s = await serve(...args); servers.push(s.server); return s; };
after(async () => { await browser?.close(); for (const s of servers) { s.close(); s.closeAllConnections?.(); } });

const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

test('the README gives the snippet the Embed dialog gives, and the demo post uses it', async () => {
  const { server, url } = await serveHere();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/?lesson=backoff&step=1`);
  await page.waitForSelector('[data-testid="lesson-step-title"]');
  await page.click('[data-testid="embed"]');
  const snippet = await page.inputValue('[data-testid="embed-snippet"]');
  // The same snippet but for its address and its name (each frame is named
  // by its own lesson and step).
  const shape = (s) => s.replace(/src="[^"]*"/, 'src=""').replace(/title="[^"]*"/, 'title=""');
  const inReadme = README.match(/<iframe[^>]*><\/iframe>/)[0];
  assert.equal(shape(inReadme), shape(snippet), 'the README shows the snippet the dialog gives');
  const demo = fs.readFileSync(path.join(root, 'static/embed-demo.html'), 'utf8');
  for (const frame of demo.match(/<iframe[^>]*><\/iframe>/g)) {
    assert.equal(shape(frame.replace(/ id="[^"]*" data-testid="[^"]*"/, '')), shape(snippet), 'the demo post embeds with the same snippet');
  }
  assert.match(snippet, /title="3\. Per-item backoff and the first second, step 1: Doubling delays \(Workqueue Playground\)"/, 'the frame is named by its lesson and step');
  const titles = demo.match(/<iframe[^>]*><\/iframe>/g).map((f) => f.match(/title="([^"]*)"/)[1]);
  assert.equal(new Set(titles).size, titles.length, 'the demo post\'s frames have names of their own');
  assert.match(snippet, /height="(\d+)"[^>]*height:\1px/, 'the frame\'s height is set before it loads');
  assert.match(snippet, /loading="lazy"/);
  assert.doesNotMatch(snippet, /<script/, 'no script: nothing resizes the frame');
  await context.close();
  server.close();
});

// Five frames at once (they mostly wait on the page): the narrowest phone
// of playwright-core's list, a common one, the widest, a tablet, and a
// 700 px blog column. See reading.mjs for what each view is held to.
test('every step embedded where it is read (phones, a tablet, a blog column): readable, nothing cut, nothing shifts', async () => {
  const { server, url } = await serveHere();
  const phones = deviceViewports(devices).filter((v) => v.width < 600);
  const pick = (w) => phones.find((v) => v.width === w);
  const narrowest = phones[0], widest = phones[phones.length - 1];
  const frames = [
    [narrowest.name, frameOf(narrowest.width), true],
    [pick(412).name, frameOf(412), true],
    [widest.name, frameOf(widest.width), true],
    ['a 600x960 tablet', frameOf(600), true],
    ['a blog column', { width: 700, height: 640 }, false],
  ];
  const t0 = Date.now();
  // (The server is closed however the test ends: an open one would keep
  // the test runner waiting for ever after a failure.)
  try {
    const results = await Promise.all(frames.map(async ([name, viewport, touch]) => {
      const context = await browser.newContext({ viewport, hasTouch: touch });
      try {
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        const { faults, views } = await walk(page, url, viewport);
        return { name, viewport, faults, views, errors };
      } finally {
        await context.close();
      }
    }));
    for (const r of results) console.log(`${r.name} (frame ${r.viewport.width}x${r.viewport.height}): ${r.views} views, ${r.faults.length} faults`);
    console.log(`walks took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    for (const r of results) assert.ok(r.views >= 60, `${r.name}: ${r.views} views`);
    assert.deepEqual(results.flatMap((r) => r.faults), []);
    assert.deepEqual(results.flatMap((r) => r.errors), []);
  } finally {
    server.close();
    server.closeAllConnections?.();
  }
});

// The post's paragraphs, where they sit in the document (not the window).
const paragraphs = (page) => page.$$eval('article > p, figcaption', (els) => els.map((e) => Math.round(e.getBoundingClientRect().top + scrollY)));

for (const prefix of ['', '/playground']) {
  for (const viewport of [{ width: 360, height: 640, touch: true }, { width: 768, height: 1024, touch: false }]) {
    test(`a post with two embeds${prefix ? ' under ' + prefix + '/' : ' at /'}, read at ${viewport.width}x${viewport.height} on a slow link`, async () => {
      const shape = { latency: 150, rate: 200 * 1000 };
      const { server, url } = await serveHere(undefined, { gzip: true, prefix, shape });
      const context = await browser.newContext({ viewport, hasTouch: viewport.touch, isMobile: viewport.touch });
      const page = await context.newPage();
      const errors = [];
      page.on('console', (m) => { if (['error', 'warning'].includes(m.type())) errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${url}${prefix}/embed-demo.html`, { waitUntil: 'domcontentloaded' });
      const first = await paragraphs(page);
      // The reader starts reading and scrolls a little while the embeds load.
      const moved = [];
      for (let i = 0; i < 12; i++) {
        await page.mouse.wheel(0, 60);
        await page.waitForTimeout(250);
        const now = await paragraphs(page);
        if (now.some((y, j) => y !== first[j])) moved.push(`after ${(i + 1) * 250} ms: ${first} -> ${now}`);
      }
      const frame = await (await page.$('iframe#backoff')).contentFrame();
      await frame.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 30000 });
      assert.deepEqual(moved, [], 'no paragraph moved while the embeds loaded');
      // Every frame loads lazily (the browser fetches one when the reader nears it).
      assert.deepEqual(await page.$$eval('iframe', (fs) => fs.map((f) => f.loading)), ['lazy', 'lazy', 'lazy']);
      // The host keeps the keyboard: Space scrolls the post.
      const focused = await page.evaluate(() => document.activeElement?.tagName);
      assert.notEqual(focused, 'IFRAME', 'no embed took focus');
      const before = await page.evaluate(() => scrollY);
      await page.keyboard.press('Space');
      await page.waitForTimeout(400);
      assert.ok((await page.evaluate(() => scrollY)) > before, 'Space scrolled the post');
      // Scroll to the second embed; it loads; nothing moves.
      await page.evaluate(() => document.querySelector('#herd').scrollIntoView({ block: 'center' }));
      const second = await (await page.$('iframe#herd')).contentFrame();
      await second.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 30000 });
      await page.waitForTimeout(300);
      const at = await page.evaluate(() => scrollY);
      const settled = await paragraphs(page);
      assert.deepEqual(settled, first, 'the text stays where it was when the second embed loaded');
      // A tap in an embed (on its stage, then its Next) never scrolls the post.
      const box = await (await page.$('iframe#herd')).boundingBox();
      if (viewport.touch) await page.touchscreen.tap(box.x + box.width / 2, box.y + 120);
      else await page.mouse.click(box.x + box.width / 2, box.y + 120);
      await second.click('[data-testid="lesson-next"]');
      await page.waitForTimeout(500);
      assert.equal(await page.evaluate(() => scrollY), at, 'a tap inside the embed did not scroll the post');
      // Nothing is cut inside either frame.
      for (const f of [frame, second]) assert.deepEqual(await clipped(f), []);
      await page.screenshot({ path: path.join(shots, `post-${prefix ? 'sub' : 'root'}-${viewport.width}x${viewport.height}.png`) });
      assert.deepEqual(errors, []);
      await context.close();
      server.close();
    });
  }
}

// What a blogger's reader met, on frames of a blog column, a wide column and
// a phone: a notice never lies over a control; the frame's name opens the
// same step in the whole playground; Tab from the host enters at the
// lesson's main button; a revealed answer leaves the page's text where it
// was read; the version switch keeps the lesson.
const FRAMES = [{ width: 760, height: 640 }, { width: 900, height: 640 }, { width: 390, height: 640 }];
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('an embed\'s notice lies over none of its controls; its name opens the step in the whole playground; Tab enters at the lesson\'s main button', async () => {
  const { url } = await serveHere();
  for (const viewport of FRAMES) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${url}/?embed=1&lesson=fast-slow&step=1`);
    await page.waitForSelector('[data-testid="lesson-next"]');
    await page.waitForTimeout(300);
    // Tab from outside the frame's controls: the lesson's main button.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'lesson-next', `${viewport.width}: Tab entered at the lesson's main button`);
    // Play on a prediction step says how to go on, over no control.
    await page.click('[data-testid="play"]');
    const notice = await (await page.waitForSelector('[data-testid="notice"]')).boundingBox();
    const controls = await page.evaluate(() => [...document.querySelectorAll('button, input, select, a[href]')]
      .filter((el) => el.offsetWidth > 0 && !el.closest('[data-testid="notice"]'))
      .map((el) => { const r = el.getBoundingClientRect(); return { name: el.dataset.testid || el.getAttribute('aria-label') || el.textContent.trim(), x: r.x, y: r.y, width: r.width, height: r.height }; }));
    assert.ok(controls.length > 5, 'the frame has its controls');
    for (const c of controls) assert.ok(!overlap(notice, c), `${viewport.width}: the notice lies over "${c.name}"`);
    const full = page.locator('[data-testid="open-full"]');
    assert.equal(await full.getAttribute('href'), './?lesson=fast-slow&step=1');
    assert.equal(await full.getAttribute('target'), '_blank');
    await context.close();
  }
});

test('an embed\'s exercise opens its step in the whole playground; a guess it cannot read is said beside the field; the question\'s page takes the keyboard to the field', async () => {
  const { url } = await serveHere();
  // Every built-in step whose block sets a goal (the lessons' own files).
  const library = LESSONS.flatMap((lesson) => fs.readFileSync(path.join(root, 'lessons', `${lesson}.md`), 'utf8')
    .split(/^```step$/m).slice(1)
    .map((block, i) => ({ lesson, step: i + 1, goal: /"goal"\s*:/.test(block.split(/^```$/m)[0]) }))
    .filter((s) => s.goal));
  assert.ok(library.length >= 1, `steps with an exercise: ${JSON.stringify(library)}`);
  for (const viewport of FRAMES) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // Every built-in step with an exercise: no Check (an embed has no settings form), a way to the playground.
    for (const { lesson, step } of library) {
      await page.goto(`${url}/?embed=1&lesson=${lesson}&step=${step}`);
      await page.waitForSelector('[data-testid="goal"]', { state: 'attached' });
      assert.equal(await page.$('[data-testid="goal-check"]'), null, `${lesson} ${step}: no Check in a frame`);
      const link = page.locator('[data-testid="goal-open"]');
      assert.equal(await link.getAttribute('href'), `./?lesson=${lesson}&step=${step}`);
      assert.equal(await link.getAttribute('target'), '_blank');
    }
    // A prediction step: the press that shows the field puts the keyboard in it.
    await page.goto(`${url}/?embed=1&lesson=fast-slow&step=1`);
    await page.waitForSelector('[data-testid="lesson-next"]');
    const press = () => page.getAttribute('[data-testid="lesson-next"]', 'data-press');
    for (let i = 0; i < 8 && (await press()) === 'page'; i++) { await page.waitForTimeout(350); await page.click('[data-testid="lesson-next"]'); }
    await page.waitForSelector('[data-testid="guess"]');
    const story = await page.$('[data-testid="turn-story"]');
    if (!story || await story.isVisible()) {
      await page.waitForTimeout(100);
      const focused = await page.evaluate(() => document.activeElement?.dataset.testid);
      assert.ok(focused === 'guess' || (await press()) === 'asked', `${viewport.width}: the field or its Predict press (${focused})`);
    }
    if ((await press()) === 'asked') { await page.waitForTimeout(350); await page.click('[data-testid="lesson-next"]'); }
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'guess', `${viewport.width}: the keyboard is in the field`);
    // A count below zero: refused beside the field, in words, not over the stage.
    await page.keyboard.type('-5');
    await page.keyboard.press('Enter');
    const why = await page.waitForSelector('[data-testid="guess-refused"]');
    assert.match(await why.textContent(), /below zero/);
    assert.equal(await page.getAttribute('[data-testid="guess"]', 'aria-invalid'), 'true');
    assert.equal(await page.$('[data-testid="notice"]'), null, `${viewport.width}: no notice over the stage`);
    // The refusal lies over the narration: the panel keeps its pages, the
    // field and the keyboard (it once grew the foot, and the pages flipped).
    const panel = () => page.evaluate(() => [document.querySelector('[data-testid="lesson-page"]')?.textContent ?? '', document.querySelector('[data-testid="lesson-next"]')?.dataset.press, document.activeElement?.dataset.testid].join(' | '));
    const still = await panel();
    for (let i = 0; i < 6; i++) { await page.waitForTimeout(200); assert.equal(await panel(), still, `${viewport.width}: the panel after a refused guess`); }
    assert.match(still, /\| guess$/, `${viewport.width}: the field keeps the keyboard`);
    // Typing again takes it away; a readable guess is revealed.
    await page.fill('[data-testid="guess"]', '7');
    assert.equal(await page.$('[data-testid="guess-refused"]'), null);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="answer-value"]');
    await context.close();
  }
});

test('a revealed answer leaves the text of the page it was read on; the version switch keeps the lesson', async () => {
  const { url } = await serveHere();
  const shown = (page) => page.evaluate(() => [...document.querySelectorAll('.lesson-body .lesson-text p, .lesson-body .lesson-text .sentence')]
    .filter((el) => el.offsetHeight > 0 && !el.closest('.ask') && !el.classList.contains('ask') && !el.querySelector('.sentence'))
    .map((el) => el.textContent.trim()).filter(Boolean));
  for (const viewport of FRAMES) {
    for (const [lesson, step] of [['v023', 5], ['sets', 2], ['fast-slow', 1], ['crossplane', 6], ['herd', 3]]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${url}/?embed=1&lesson=${lesson}&step=${step}`);
      await page.waitForSelector('[data-testid="lesson-next"]');
      const press = () => page.getAttribute('[data-testid="lesson-next"]', 'data-press');
      // (Presses apart, as a reader's are: the clicker's guard takes a
      // second press within 300 ms for a bounce.)
      const next = async () => { await page.waitForTimeout(350); await page.click('[data-testid="lesson-next"]'); };
      // (Read on to the question's page asks for the guess at once.)
      for (let i = 0; i < 8 && !['asked', 'revealed'].includes(await press()); i++) await next();
      assert.ok(['asked', 'revealed'].includes(await press()), `${lesson} ${step}: the question is reached`);
      if ((await press()) === 'asked') await next();
      await page.fill('[data-testid="guess"]', '1');
      const before = await shown(page);
      // (Where the step has one page there is no page count: read at
      // once, never waited for.)
      const pageOf = () => page.evaluate(() => document.querySelector('[data-testid="lesson-page"]')?.textContent ?? '');
      const where = await pageOf();
      // (In a frame, the lesson's main button reveals: it says Reveal.)
      assert.equal(await press(), 'revealed');
      await next();
      await page.waitForSelector('[data-testid="answer-value"]', { timeout: 3000 }).catch(async () => {
        await page.screenshot({ path: `/tmp/probe/fail-${lesson}-${step}-${viewport.width}.png` });
        assert.fail(`${viewport.width} ${lesson} ${step}: the answer is not on screen after Reveal (${await pageOf()})`);
      });
      await page.waitForTimeout(150);
      const after = await shown(page);
      for (const text of before) assert.ok(after.includes(text), `${viewport.width} ${lesson} ${step} (${where}): "${text.slice(0, 50)}…" left the page at Reveal`);
      // Why the answer is what it is, on the reader's asking: a card inside
      // the frame that moves nothing (the pages, the panel), closed by its
      // own button.
      const panel = () => page.evaluate(() => { const b = document.querySelector('.lesson-body').getBoundingClientRect(); return [b.top, b.height, document.querySelector('[data-testid="lesson-page"]')?.textContent ?? '']; });
      const still = await panel();
      await page.click('[data-testid="answer-why-toggle"]');
      const why = await page.textContent('[data-testid="answer-why"]');
      assert.match(why, /^Often guessed: /, `${lesson} ${step}: the why says the usual slip and the rule`);
      const box = await page.$eval('[data-testid="answer-why"]', (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]; });
      assert.ok(box[0] >= 0 && box[1] >= 0 && box[2] <= box[4] && box[3] <= box[5], `${viewport.width} ${lesson} ${step}: the why is inside the frame ${box}`);
      assert.deepEqual(await panel(), still, `${viewport.width} ${lesson} ${step}: opening the why moves nothing`);
      // Beside the answer it explains, never over it.
      const line = await page.$eval('[data-testid="answer-value"]', (el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; });
      assert.ok(box[3] <= line[0] || box[1] >= line[1], `${viewport.width} ${lesson} ${step}: the why (${box[1]}..${box[3]}) covers the answer (${line[0]}..${line[1]})`);
      await page.click('[data-testid="answer-why-close"]');
      assert.equal(await page.$('[data-testid="answer-why"]'), null, 'its Close closes it');
      // Open again, then play: the reader watches the stage, and the card
      // would cover the answer's line; it closes.
      await page.click('[data-testid="answer-why-toggle"]');
      await page.waitForSelector('[data-testid="answer-why"]');
      await page.click('[data-testid="play"]');
      await page.waitForSelector('[data-testid="answer-why"]', { state: 'detached', timeout: 2000 }).catch(() => assert.fail(`${viewport.width} ${lesson} ${step}: the why stays open while the scene plays`));
      await page.click('[data-testid="play"]');
      if (lesson === 'v023' && viewport.width > 640) {
        // The step points at the version switch: it keeps the lesson.
        await page.click('[data-testid="queue-client-go"]');
        await page.waitForTimeout(200);
        assert.equal(await page.textContent('[data-testid="lesson-step-title"]'), 'An event during a RequeueAfter', 'the lesson is still there, at its step');
        assert.ok(await page.isVisible('[data-testid="answer-value"]'), 'with the answer revealed');
      }
      await context.close();
    }
  }
});

test('an embed\'s transport: ← stops where the step opened, playing never moves its buttons, and a chip is no dead button', async () => {
  const { url } = await serveHere();
  for (const viewport of FRAMES) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // Done is not optional: no prediction, a scene to play.
    await page.goto(`${url}/?embed=1&lesson=forget-done&step=2`);
    await page.waitForSelector('[data-testid="lesson-next"]');
    const back = '[aria-label="Step back to the previous event"]';
    // (The run's instant to the nanosecond: the clock's text rounds.)
    const clock = () => page.getAttribute('[data-now]', 'data-now');
    const opened = await clock();
    assert.ok(await page.isDisabled(back), `${viewport.width}: nothing before the step's start to step back to`);
    for (let i = 0; i < 3; i++) await page.click('[data-testid="step"]');
    assert.notEqual(await clock(), opened, 'the step buttons move the run on');
    assert.ok(await page.isEnabled(back));
    for (let i = 0; i < 6 && (await page.isEnabled(back)); i++) await page.click(back);
    assert.equal(await clock(), opened, `${viewport.width}: back as far as the step's start, no further`);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await clock(), opened, '← too');
    // A chip shows no "select to see why" where no inspector answers it.
    assert.equal(await page.locator('button.chip').count(), 0, 'an embedded lesson\'s chips are not buttons');
    assert.ok(await page.locator('.chip').count() > 0, 'its chips are drawn');
    // Played: the clock's cue comes and goes beside the buttons, which stay.
    const boxes = () => page.evaluate(() => [...document.querySelectorAll('.transport-buttons button')].filter((b) => b.offsetWidth > 0).map((b) => { const r = b.getBoundingClientRect(); return `${Math.round(r.x)},${Math.round(r.y)}`; }).join(' '));
    const still = await boxes();
    await page.click('[data-testid="play"]');
    for (let i = 0; i < 10; i++) {
      await page.waitForTimeout(200);
      assert.equal(await boxes(), still, `${viewport.width}: the transport's buttons moved while playing`);
    }
    // And the longest cue the clock can say has its room from the start.
    await page.evaluate(() => { const p = document.querySelector('.clock .pace'); p.textContent = 'waiting for your first key'; p.className = 'pace idle'; });
    assert.equal(await boxes(), still, `${viewport.width}: the longest cue moves the buttons`);
    await context.close();
  }
});

test('a built-in lesson\'s embed loads the embed\'s own module; a shared run, a trainer\'s file and an unknown lesson load the page\'s, and each shows what it was given', async () => {
  const { server, url } = await serveHere();
  const wasmOf = async (address, ready) => {
    const context = await browser.newContext({ viewport: { width: 700, height: 640 } });
    const page = await context.newPage();
    const modules = [];
    const lessons = [];
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (p.endsWith('.wasm') && !p.includes('lesson-worker')) modules.push(p.split('/').pop());
      if (p.includes('/lessons/')) lessons.push(p.split('/').pop());
    });
    await page.goto(`${url}/${address}`);
    await page.waitForSelector(ready, { timeout: 30000 });
    return { page, context, modules, lessons };
  };
  // A built-in lesson: the light module, and the lesson's file, asked for
  // once (the app takes the text the start script asked for beside it).
  let seen = await wasmOf('?embed=1&lesson=sets&step=2', '[data-testid="lesson"] .lesson-text p');
  assert.deepEqual(seen.modules, ['workqueue-embed_bg.wasm']);
  await seen.page.waitForTimeout(500);
  assert.deepEqual(seen.lessons, ['sets.json'], 'the lesson\'s file is fetched once');
  await seen.context.close();
  // A shared run (made by the page's Share): the page's module, the run and its inspector.
  seen = await wasmOf('', '[data-testid="add"]');
  await seen.page.fill('[data-testid="key"]', 'ns/embedded');
  await seen.page.click('[data-testid="add"]');
  await seen.page.click('[data-testid="share"]');
  const link = new URL(await seen.page.inputValue('[data-testid="share-link"]'));
  await seen.context.close();
  seen = await wasmOf(`?embed=1${link.hash}`, '[data-testid="inspector"]');
  assert.equal(seen.modules.length, 1);
  assert.match(seen.modules[0], /^workqueue-playground-.*_bg\.wasm$/);
  assert.match(await seen.page.textContent('[data-testid="stage"], #stage'), /ns\/embedded/);
  await seen.context.close();
  // A trainer's lesson file from this site: the page's module, the lesson.
  seen = await wasmOf('?embed=1&lesson-file=example-lesson.md', '[data-testid="lesson"] .lesson-text p');
  assert.match(seen.modules[0], /^workqueue-playground-/);
  await seen.context.close();
  // A lesson no build knows: the page's module says so.
  seen = await wasmOf('?embed=1&lesson=nope', '[data-testid="notice"]');
  assert.match(seen.modules[0], /^workqueue-playground-/);
  assert.match(await seen.page.textContent('[data-testid="notice"]'), /nope/);
  await seen.context.close();
  server.close();
});
