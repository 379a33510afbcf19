// The largest lesson the work budget admits, opened in the page from a
// `?lesson-file=` link: prints how long after navigation its first step
// shows, and the worst gap between frames meanwhile (median of 3).
// A benchmark, not a test: `node tests/e2e/largest.mjs` after a release build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, dist, root } from './harness.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wq-largest-'));
fs.cpSync(dist, dir, { recursive: true });
const out = execFileSync('cargo', ['run', '-q', '--release', '-p', 'workqueue-lessons', '--example', 'largest', path.join(dir, 'largest.md')], { cwd: root }).toString();
process.stdout.write(out);
const { server, url } = await serve(dir);
const browser = await launch();
const runs = [];
for (let run = 0; run < 3; run++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => { window.__f = []; const t = (x) => { window.__f.push(x); requestAnimationFrame(t); }; requestAnimationFrame(t); });
  const started = Date.now();
  await page.goto(`${url}/?lesson-file=largest.md`);
  await page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 60000 });
  const took = Date.now() - started;
  const gap = await page.evaluate(() => { let w = 0; for (let i = 2; i < window.__f.length; i++) w = Math.max(w, window.__f[i] - window.__f[i - 1]); return w; });
  runs.push({ took, gap });
  await context.close();
}
await browser.close();
server.close();
fs.rmSync(dir, { recursive: true, force: true });
const median = (xs) => xs.sort((a, b) => a - b)[1];
console.log(`in the page: opened ${median(runs.map((r) => r.took))} ms after navigation (median of 3), worst frame gap after the first paint ${median(runs.map((r) => r.gap)).toFixed(0)} ms`);
