// Browser benchmark (figures, not a pass/fail test): the page's load time,
// and frame times while 10,000 failing keys run at 10x speed.
// Prints `name value` lines. Needs a release build in dist/.
import { serve, launch, open, failingStorm } from './harness.mjs';

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };

const { server, url } = await serve();
const browser = await launch();
try {
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const { page, context } = await open(browser, url);
    // From navigation start to the first rendered frame of the app.
    loads.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  console.log(`page_load_ms ${pct(loads, 50).toFixed(1)}`);

  const { page, context, problems } = await open(browser, url);
  await failingStorm(page, 10000);
  for (let i = 0; i < 3; i++) await page.keyboard.press('+'); // 1x → 2x → 5x → 10x
  await page.waitForTimeout(100);
  const speed = await page.textContent('[data-testid="speed"]');
  const frames = await page.evaluate(() => new Promise((resolve) => {
    const deltas = []; let last = performance.now(); const end = last + 5000;
    const tick = (t) => { deltas.push(t - last); last = t; if (t < end) requestAnimationFrame(tick); else resolve(deltas); };
    requestAnimationFrame(tick);
  }));
  console.log(`frames_measured ${frames.length}`);
  console.log(`speed ${speed}`);
  console.log(`frame_p50_ms ${pct(frames, 50).toFixed(2)}`);
  console.log(`frame_p95_ms ${pct(frames, 95).toFixed(2)}`);
  console.log(`frame_max_ms ${Math.max(...frames).toFixed(2)}`);
  console.log(`virtual_time_after_5s ${await page.textContent('[data-testid="clock"]')}`);
  if (problems.console.length) console.log(`console_errors ${problems.console.length}`);
  await context.close();
} finally {
  await browser.close();
  server.close();
}
