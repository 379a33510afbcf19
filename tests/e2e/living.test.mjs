// What a newcomer watches, frame by frame: watch events fly in and merge,
// the bucket drains and refills, a key is answered from the keyboard, and
// the first visit has one obvious thing to do.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot, onPage } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// Samples `fn` (run in the page) at every animation frame for `ms`.
function sample(page, fn, ms) {
  return page.evaluate(([body, ms]) => new Promise((resolve) => {
    const f = new Function(`return (${body})()`);
    const out = []; const end = performance.now() + ms;
    const tick = () => { out.push(f()); if (performance.now() < end) requestAnimationFrame(tick); else resolve(out); };
    requestAnimationFrame(tick);
  }), [fn.toString(), ms]);
}

test('fifty events a second fly in as a stream and merge into one queued copy', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson=sets&step=2`);
  await page.fill('[data-testid="guess"]', '3');
  await page.click('[data-testid="reveal"]');
  await page.click('[data-testid="lesson-play"]');
  const frames = await sample(page, () => [...document.querySelectorAll('[data-stage] .particle')].map((p) => ({
    x: p.getBoundingClientRect().left, landing: p.dataset.landing, opacity: Number(getComputedStyle(p).opacity),
  })), 1500);
  const busiest = frames.reduce((a, b) => (b.length > a.length ? b : a), []);
  const visible = busiest.filter((p) => p.opacity > 0.2);
  assert.ok(visible.length >= 8, `${visible.length} events in flight at once`);
  const xs = new Set(visible.map((p) => Math.round(p.x / 10)));
  assert.ok(xs.size >= 5, `spread along the path, not a clump (${xs.size} distinct places)`);
  const landings = new Set(frames.flat().map((p) => p.landing));
  assert.ok(landings.has('merged') && landings.has('dirty'), `merged and dirty landings: ${[...landings]}`);
  // The one key in flight carries the events it absorbed.
  const badge = await page.textContent('[data-stage] .chip[data-key="default/web-1"] [data-testid="absorbed"]');
  assert.match(badge, /^\+\d+$/);
  await shot(page, '45-storm-particles');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('the herd lesson: the bucket starts full, drains, then refills on screen', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson=herd&step=3`);
  assert.equal(await page.textContent('[data-testid="lesson-step-title"]'), 'Empty, then refill');
  const level = async () => parseFloat(await page.textContent('[data-testid="tokens"]'));
  assert.equal(await level(), 100, 'a full bucket before anything happens');
  await page.fill('[data-testid="guess"]', '90');
  await page.click('[data-testid="reveal"]');
  await page.click('[data-testid="lesson-play"]');
  const levels = await sample(page, () => parseFloat(document.querySelector('[data-testid="tokens"]').textContent), 4500);
  const lowest = Math.min(...levels);
  const at = levels.indexOf(lowest);
  assert.ok(lowest < 0, `it drains into debt (lowest ${lowest})`);
  // It went down over many frames, not in one jump...
  const falling = levels.slice(0, at).filter((v, i, a) => i > 0 && v < a[i - 1]).length;
  assert.ok(falling >= 10, `${falling} frames of draining`);
  // ...and comes back up afterwards.
  assert.ok(levels[levels.length - 1] > lowest + 5, `then refills: ${lowest} → ${levels[levels.length - 1]}`);
  assert.match(await page.textContent('[data-testid="bucket"]'), /\d+ keys? waiting on the bucket/);
  await shot(page, '46-bucket-refill');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a reconcile is answered from the keyboard and focus stays with the work', () => onPage(browser, url, async ({ page }) => {
  await page.click('[data-testid="add"]'); // the default script: you decide
  await page.waitForSelector('[data-testid="outcome-error"]');
  assert.match(await page.textContent('[data-testid="outcome-error"]'), /^4/, 'each outcome shows its number key');
  await page.keyboard.press('4');
  await page.waitForSelector('[data-stage] .chip.waiting[data-key="default/web-1"]');
  assert.equal(await page.textContent('[data-testid="num-requeues"]'), '1', 'an error: rate limited');
  const focused = await page.evaluate(() => document.activeElement?.tagName);
  assert.notEqual(focused, 'BODY', 'focus did not fall back to the page');
}));

test('a first visit offers one obvious action: watch a key fail three times and recover', async () => {
  const { page, context, problems } = await open(browser, url);
  assert.ok(await page.isVisible('[data-testid="welcome"]'));
  await page.click('[data-testid="watch-demo"]');
  assert.equal(await page.isVisible('[data-testid="welcome"]'), false, 'it steps aside once things move');
  assert.equal(await page.textContent('[data-testid="script-words"]'), 'fails 3 times, then succeeds', 'scripts read as words');
  // Three waits, each one visibly longer than the one before, then success.
  const seen = await sample(page, () => {
    const c = document.querySelector('[data-stage] .chip.waiting[data-key="default/flaky"] .failures');
    return c ? c.textContent : null;
  }, 6000);
  const failures = [...new Set(seen.filter(Boolean))];
  assert.deepEqual(failures, ['#1', '#2', '#3'], `waits shown: ${failures}`);
  await page.waitForFunction(() => /success/.test(document.querySelector('[data-testid="calls"]')?.textContent || ''), null, { timeout: 10000 });
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('every chart has a data table', () => onPage(browser, url, async ({ page }) => {
  await page.click('[data-testid="tab-charts"]');
  assert.equal(await page.locator('.chart details.data-table').count(), 4);
  await page.click('.chart details.data-table >> nth=3');
  const rows = await page.locator('.chart details.data-table >> nth=3 >> tbody tr').count();
  assert.equal(rows, 20, 'the delay of each of the first 20 failures');
  assert.match(await page.textContent('.chart details.data-table >> nth=3 >> tbody tr >> nth=0'), /5ms/);
}));

test('in workshop mode a lesson step is acted on from the lesson itself', async () => {
  const { page, context, problems } = await open(browser, `${url}/?workshop=1&lesson=sets`, { viewport: { width: 1024, height: 768 } });
  await page.click('[data-testid="lesson-act"]');
  await page.waitForSelector('[data-stage] .chip[data-key="default/web-1"]');
  await shot(page, '47-workshop-act-1024x768');
  assert.deepEqual(problems.console, []);
  await context.close();
});
