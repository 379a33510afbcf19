// An embed is a guest in someone's page. Every step of every built-in lesson,
// embedded as the README's snippet does (a frame 640 px tall) in a 700 px
// blog column and on 390, 360 and 328 px phones: the lesson panel is whole, its
// Next on screen, the step's lanes in view, no control cut, nothing spills
// below the frame, the narration in pages of a few lines (8 pages at most).
// And a blog post with two embeds, read on a slow link
// while they load: the text never moves, the host keeps the keyboard, Space
// scrolls the post, a tap inside an embed never scrolls it, at / and under
// /playground/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, shots, root } from './harness.mjs';
import { measure, clipped } from './room.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const LESSONS = fs.readdirSync(path.join(root, 'lessons')).filter((f) => f.endsWith('.md')).map((f) => f.replace(/\.md$/, ''));
const stepsOf = (id) => (fs.readFileSync(path.join(root, 'lessons', `${id}.md`), 'utf8').match(/^```step$/gm) || []).length;
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

test('the README gives the snippet the Embed dialog gives, and the demo post uses it', async () => {
  const { server, url } = await serve();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/?lesson=backoff&step=1`);
  await page.waitForSelector('[data-testid="lesson-step-title"]');
  await page.click('[data-testid="embed"]');
  const snippet = await page.inputValue('[data-testid="embed-snippet"]');
  const shape = (s) => s.replace(/src="[^"]*"/, 'src=""');
  const inReadme = README.match(/<iframe[^>]*><\/iframe>/)[0];
  assert.equal(shape(inReadme), shape(snippet), 'the README shows the snippet the dialog gives');
  const demo = fs.readFileSync(path.join(root, 'static/embed-demo.html'), 'utf8');
  for (const frame of demo.match(/<iframe[^>]*><\/iframe>/g)) {
    assert.equal(shape(frame.replace(/ id="[^"]*" data-testid="[^"]*"/, '')), shape(snippet), 'the demo post embeds with the same snippet');
  }
  assert.match(snippet, /height="(\d+)"[^>]*height:\1px/, 'the frame\'s height is set before it loads');
  assert.match(snippet, /loading="lazy"/);
  assert.doesNotMatch(snippet, /<script/, 'no script: nothing resizes the frame');
  await context.close();
  server.close();
});

// 328 is the frame a 360 px phone gives the demo post's embeds (its margins).
for (const [width, height] of [[700, 640], [390, 640], [360, 640], [328, 640]]) {
  test(`every step embedded in a ${width}x${height} frame: panel whole, Next on screen, lanes in view, nothing cut`, async () => {
    const { server, url } = await serve();
    const context = await browser.newContext({ viewport: { width, height }, hasTouch: width < 500 });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const faults = [];
    let views = 0;
    fs.mkdirSync(path.join(shots, 'embed'), { recursive: true });
    for (const id of LESSONS) {
      for (let step = 1; step <= stepsOf(id); step++) {
        await page.goto(`${url}/?embed=1&lesson=${id}&step=${step}`);
        await page.waitForSelector('[data-testid="lesson-step-title"]');
        // As a reader goes through the step: each press of Next.
        for (let press = 0; press < 5; press++) {
          await page.waitForTimeout(200);
          const m = await measure(page);
          for (const p of [...m.problems, ...(await clipped(page))]) faults.push(`${id} step ${step} [${m.press}]: ${p}`);
          // The narration is read a few lines at a time, never a word at a time.
          const pages = Number((await page.evaluate(() => document.querySelector('[data-testid="lesson-page"]')?.textContent || '')).match(/of (\d+)/)?.[1] || 1);
          if (pages > 8) faults.push(`${id} step ${step} [${m.press}]: the narration takes ${pages} pages`);
          await page.screenshot({ path: path.join(shots, 'embed', `${width}x${height}-${id}-${step}-${press}.png`) });
          views += 1;
          if (['moved', 'dwelling', 'at-end'].includes(m.press)) break;
          await page.click('[data-testid="lesson-next"]');
        }
      }
    }
    console.log(`${width}x${height}: ${views} views`);
    assert.ok(views >= 27, `${views} views`);
    assert.deepEqual(faults, []);
    assert.deepEqual(errors, []);
    await context.close();
    server.close();
  });
}

// The post's paragraphs, where they sit in the document (not the window).
const paragraphs = (page) => page.$$eval('article > p, figcaption', (els) => els.map((e) => Math.round(e.getBoundingClientRect().top + scrollY)));

for (const prefix of ['', '/playground']) {
  for (const viewport of [{ width: 360, height: 640, touch: true }, { width: 768, height: 1024, touch: false }]) {
    test(`a post with two embeds${prefix ? ' under ' + prefix + '/' : ' at /'}, read at ${viewport.width}x${viewport.height} on a slow link`, async () => {
      const shape = { latency: 150, rate: 200 * 1000 };
      const { server, url } = await serve(undefined, { gzip: true, prefix, shape });
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
      // Both frames load lazily (the browser fetches one when the reader nears it).
      assert.deepEqual(await page.$$eval('iframe', (fs) => fs.map((f) => f.loading)), ['lazy', 'lazy']);
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
