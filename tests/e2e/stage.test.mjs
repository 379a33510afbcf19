// The living stage, watched frame by frame: keys glide between places,
// millisecond backoffs stay on screen long enough to read at 1x, and a
// revealed lesson answer does not move when the run goes on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, open, shot, failingStorm, onPage } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// Samples one key on the stage at every animation frame for `ms`:
// its position, and which lane holds it.
function sampleKey(page, key, ms) {
  return page.evaluate(([key, ms]) => new Promise((resolve) => {
    const out = []; const end = performance.now() + ms;
    const tick = () => {
      const el = document.querySelector(`[data-stage] .chip[data-key="${key}"]`);
      if (el) {
        const r = el.getBoundingClientRect();
        const lane = ['queued', 'processing', 'waiting'].find((c) => el.classList.contains(c)) || '';
        out.push({ x: r.left, y: r.top, lane, t: performance.now() });
      } else out.push(null);
      if (performance.now() < end) requestAnimationFrame(tick); else resolve(out);
    };
    requestAnimationFrame(tick);
  }), [key, ms]);
}

test('a failing key glides between places and its 5ms backoff is readable at 1x', () => onPage(browser, url, async ({ page }) => {
  assert.ok(await page.$('[role="region"][aria-label*="stage"], section[aria-label*="stage"]'), 'the stage is a named region');
  await failingStorm(page, 1);
  const key = 'default/pod-0';
  const samples = (await sampleKey(page, key, 3000)).filter(Boolean);
  assert.ok(samples.length > 60, `${samples.length} frames sampled`);
  // Travel: between two resting places the chip passes through many
  // intermediate positions, not one jump.
  const deltas = samples.slice(1).map((s, i) => Math.hypot(s.x - samples[i].x, s.y - samples[i].y));
  const biggest = Math.max(...deltas);
  const partial = deltas.filter((d) => d > 0.5 && d < biggest / 2).length;
  assert.ok(biggest > 20, `the key moved between lanes (${biggest.toFixed(0)}px)`);
  assert.ok(partial >= 8, `${partial} frames in mid-flight`);
  // Time you can see: the first wait (5ms virtual) lasts over half a second of real time.
  const runs = [];
  let start = null;
  for (const s of samples) {
    if (s.lane === 'waiting' && start === null) start = s.t;
    if (s.lane !== 'waiting' && start !== null) { runs.push(s.t - start); start = null; }
  }
  assert.ok(runs.length >= 1, 'the key waited in the heap');
  assert.ok(runs[0] >= 500, `the first backoff was on screen for ${runs[0].toFixed(0)}ms`);
  assert.match(await page.textContent('[data-testid="clock"]'), /^[0-9.]+(ms|s|µs)$/, 'a rounded clock');
  // A frame sequence to look at.
  const dir = path.join(process.cwd(), '..', '..', 'target', 'e2e-screenshots', 'travel');
  fs.mkdirSync(dir, { recursive: true });
  // Framed on the stage itself, wherever the layout puts it.
  const box = await page.locator('[data-stage]').boundingBox();
  const clip = { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 420) };
  for (let i = 0; i < 8; i++) {
    await page.screenshot({ path: path.join(dir, `frame-${i}.png`), clip });
    await page.waitForTimeout(60);
  }
}));

test('with reduced motion keys jump, but the page still works', async () => {
  const { page, context, problems } = await open(browser, url, { reducedMotion: 'reduce' });
  await failingStorm(page, 1);
  const samples = (await sampleKey(page, 'default/pod-0', 1500)).filter(Boolean);
  const deltas = samples.slice(1).map((s, i) => Math.hypot(s.x - samples[i].x, s.y - samples[i].y));
  const biggest = Math.max(...deltas);
  const partial = deltas.filter((d) => d > 0.5 && d < biggest / 2).length;
  assert.ok(biggest > 20, 'it still changes place');
  assert.ok(partial <= 2, `${partial} frames in mid-flight with reduced motion`);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a revealed answer stays put after stepping and playing', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson=max-of`);
  await page.fill('[data-testid="guess"]', '0.16s');
  await page.click('[data-testid="reveal"]');
  const before = (await page.textContent('[data-testid="answer-value"]')).trim();
  assert.equal(before, '160ms');
  assert.match(await page.textContent('[data-testid="answer"]'), /you got it/, '0.16s = 160ms');
  for (let i = 0; i < 4; i++) await page.click('[data-testid="step"]');
  await page.click('[data-testid="play"]');
  await page.waitForTimeout(1000);
  assert.equal((await page.textContent('[data-testid="answer-value"]')).trim(), before);
  await shot(page, '31-answer-stays');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('workshop mode on a projector: the stage takes most of the screen, keys in large type', async () => {
  for (const viewport of [{ width: 1024, height: 768 }, { width: 1280, height: 720 }]) {
    const { page, context, problems } = await open(browser, `${url}/?workshop=1&lesson=backoff&step=1`, { viewport });
    await page.waitForSelector('[data-stage] .chip');
    const stage = await page.locator('[data-stage]').boundingBox();
    assert.ok(stage.width >= 0.6 * viewport.width, `stage ${stage.width.toFixed(0)}px of ${viewport.width}px`);
    assert.ok(stage.y < viewport.height / 3, `the stage starts high on the screen (${stage.y.toFixed(0)}px)`);
    const chipPx = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('[data-stage] .chip')).fontSize));
    assert.ok(chipPx >= 18, `key labels at ${chipPx}px`);
    const lessonPx = await page.$eval('.lesson-text', (el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(lessonPx >= 16, `narration at ${lessonPx}px`);
    await page.waitForSelector('[data-stage] .chip .countdown');
    const countdownPx = await page.$eval('[data-stage] .chip .countdown', (el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(countdownPx >= 16, `countdowns at ${countdownPx}px`);
    assert.equal(await page.isVisible('#in-count'), false, 'forms step aside');
    await shot(page, `41-workshop-${viewport.width}x${viewport.height}`);
    assert.deepEqual(problems.console, []);
    await context.close();
  }
});

test('fifty events collapse into one reconcile in flight and one dirty copy that counts them', () => onPage(browser, url, async ({ page }) => {
  await page.fill('#f-reconcile', '1s');
  await page.click('[data-testid="apply"]');
  await page.fill('#in-rate', '50');
  await page.fill('#in-storm-for', '1s');
  await page.click('[data-testid="storm"]');
  await page.waitForFunction(() => {
    const badge = document.querySelector('[data-stage] .chip[data-key="default/web-1"] [data-testid="absorbed"]');
    return badge && Number(badge.textContent.replace('+', '')) >= 15;
  }, null, { timeout: 5000 });
  // One copy on the stage, being reconciled and marked dirty.
  assert.equal(await page.locator('[data-stage] .chip[data-key="default/web-1"]').count(), 1);
  assert.match(await page.getAttribute('[data-stage] .chip[data-key="default/web-1"]', 'class'), /dirty/);
  // Its accessible name: what it shows, then what it stands for.
  const name = await page.evaluate(() => document.querySelector('[data-stage] .chip[data-key="default/web-1"]').textContent);
  assert.match(name, /^default\/web-1.*more events merged into it/);
  await shot(page, '42-dedup');
}));

test('on a phone the stage and queue.Add share the first screen; a wide screen looks right too', async () => {
  {
    const viewport = { width: 390, height: 844 };
    const { page, context, problems } = await open(browser, url, { viewport });
    const stage = await page.locator('[data-stage]').boundingBox();
    const add = await page.locator('[data-testid="add"]').boundingBox();
    assert.ok(stage.y < viewport.height / 2, `stage at ${stage.y}px`);
    assert.ok(add.y + add.height <= viewport.height, `queue.Add at ${add.y}px`);
    await page.click('[data-testid="add"]');
    await page.waitForSelector('[data-stage] .chip[data-key="default/web-1"]');
    await shot(page, '43-phone-390x844');
    assert.deepEqual(problems.console, []);
    await context.close();
  }
  {
    const { page, context, problems } = await open(browser, url, { viewport: { width: 1920, height: 1080 } });
    await failingStorm(page, 3);
    await page.waitForTimeout(800);
    await shot(page, '44-desktop-1920x1080');
    assert.deepEqual(problems.console, []);
    await context.close();
  }
});

test('the outcome buttons meet WCAG AA contrast in light and dark mode', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, context } = await open(browser, url, { colorScheme });
    await page.selectOption('[data-testid="script"]', 'live'); // the default: you decide
    if (await page.isEnabled('[data-testid="apply"]')) await page.click('[data-testid="apply"]');
    await page.click('[data-testid="add"]');
    await page.waitForSelector('[data-testid="outcome-error"]');
    const ratios = await page.$$eval('.outcome', (buttons) => {
      const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const background = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const c = rgb(getComputedStyle(e).backgroundColor);
          if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
        }
        return [255, 255, 255];
      };
      return buttons.map((b) => {
        const [l1, l2] = [lum(rgb(getComputedStyle(b).color).slice(0, 3)), lum(background(b))].sort((a, b) => b - a);
        return { name: b.textContent.trim(), ratio: (l1 + 0.05) / (l2 + 0.05) };
      });
    });
    assert.ok(ratios.length >= 4, `${ratios.length} outcome buttons`);
    for (const { name, ratio } of ratios) assert.ok(ratio >= 4.5, `${colorScheme}: "${name}" at ${ratio.toFixed(2)}:1`);
    await context.close();
  }
});

test('the bucket demo: a full bucket says why, one click drains it, and the drip moves while in debt', () => onPage(browser, url, async ({ page }) => {
  // The reviewer's case: 300 failing keys, one worker, 200 ms reconciles.
  await page.selectOption('[data-testid="script"]', 'always-error');
  await page.click('[data-testid="apply"]');
  await page.fill('[data-testid="count"]', '300');
  await page.click('[data-testid="add-many"]');
  await page.waitForSelector('[data-testid="drain-hint"]', { timeout: 10000 });
  assert.match(await page.textContent('[data-testid="drain-hint"]'), /at most 5 failures\/s .* fewer than the 10\/s/);
  await page.click('[data-testid="drain"]');
  // Draining: the level falls below the burst within a few seconds, then into debt.
  const level = async () => parseFloat(await page.textContent('[data-testid="tokens"]'));
  const seen = [];
  const t0 = Date.now();
  while (Date.now() - t0 < 20000) {
    seen.push(await level());
    if (seen.at(-1) < 0) break;
    await page.waitForTimeout(250);
  }
  assert.ok(seen.some((v) => v > 0 && v < 100), `a level between full and empty was on screen: ${seen}`);
  assert.ok(seen.at(-1) < 0, `the bucket went into debt: ${seen}`);
  await page.waitForSelector('[data-testid="drip-text"]');
  assert.match(await page.textContent('[data-testid="drip-text"]'), /\+1 token every 100ms, taken at once by the next waiting key/);
  // The drip is drawn from the refill's progress: it moves from frame to frame.
  // (Sampled for up to 3 s: slow motion or a busy machine slows the drip,
  // it never stops while in debt.)
  const drops = new Set();
  for (let i = 0; i < 60 && drops.size < 4; i++) {
    drops.add(await page.$eval('[data-testid="drip"]', (el) => el.style.getPropertyValue('--p')));
    await page.waitForTimeout(50);
  }
  assert.ok(drops.size >= 4, `the drop moved: ${[...drops]}`);
  await shot(page, '53-bucket-drip');
}));
