// How long a blog reader on a slow link waits for an embedded lesson's first
// words (a benchmark: it prints figures, it asserts nothing). The post
// (embed-demo.html, three embeds, the last far below) is served under /playground/ on a shaped
// link: 150 ms per request, 200 kB/s shared by every request, gzip, a cold
// cache, a 360x640 touch screen. Prints the median of 3 visits:
//   embed_first_words_ms      navigation to the first embed's first paint (the
//                             step's title and first words, before any wasm)
//   embed_first_narration_ms  navigation to the first embed's narration on screen
//   embed_visit_bytes         bytes the visit moved over the link (the first two embeds)
//   embed_core_downloads      wasm modules the link carried (each holds the core)
// Run after `trunk build --release`: node tests/e2e/load.mjs
import { serve, launch } from './harness.mjs';

const runs = [];
for (let i = 0; i < 3; i++) {
  const shape = { latency: 150, rate: 200 * 1000 };
  const { server, url } = await serve(undefined, { gzip: true, prefix: '/playground', shape });
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });
  // Each frame notes, on its own clock (as epoch milliseconds), the frame in
  // which its first words and its narration were first drawn: Playwright's
  // own waits poll ever more slowly (up to 500 ms apart) and would add
  // their interval to the figure.
  await context.addInitScript(() => {
    const seen = (window.__seen = {});
    const now = () => Math.round(performance.timeOrigin + performance.now());
    const shown = (el) => el && el.getBoundingClientRect().height > 0 && el.checkVisibility();
    const look = () => {
      if (!seen.words && shown(document.querySelector('#first-paint h3:not(:empty)'))) seen.words = now();
      if (!seen.narration && shown(document.querySelector('[data-testid="lesson"] .lesson-text p'))) seen.narration = now();
      if (!seen.narration) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  const page = await context.newPage();
  const t0 = Date.now();
  await page.goto(`${url}/playground/embed-demo.html`, { waitUntil: 'commit' });
  const frame = await (await page.waitForSelector('iframe#backoff')).contentFrame();
  await frame.waitForSelector('[data-testid="lesson"] .lesson-text p', { state: 'visible', timeout: 60000 });
  const seen = await frame.evaluate(() => window.__seen);
  const [words, narration] = [seen.words - t0, seen.narration - t0];
  // Then the reader scrolls to the second embed and it loads too.
  await page.evaluate(() => document.querySelector('iframe#herd').scrollIntoView());
  const second = await (await page.waitForSelector('iframe#herd')).contentFrame();
  await second.waitForSelector('[data-testid="lesson"] .lesson-text p', { state: 'visible', timeout: 60000 });
  await page.waitForTimeout(500);
  runs.push({ words, narration, bytes: shape.bytes, wasm: shape.served.filter((p) => p.endsWith('.wasm')).length });
  await browser.close();
  server.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`embed_first_words_ms ${median(runs.map((r) => r.words))} (runs ${runs.map((r) => r.words).join(', ')})`);
console.log(`embed_first_narration_ms ${median(runs.map((r) => r.narration))} (target 3000; runs ${runs.map((r) => r.narration).join(', ')})`);
console.log(`embed_visit_bytes ${median(runs.map((r) => r.bytes))}`);
console.log(`embed_core_downloads ${median(runs.map((r) => r.wasm))}`);
