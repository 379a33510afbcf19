// Not a test (too long for the test command): walks every step of every
// built-in lesson embedded in the frame a post gives it on each portrait
// phone and tablet of playwright-core's device list, and at 700 px, and
// prints each fault (see reading.mjs). Four frames walk at once.
// Run after `trunk build --release`: node tests/e2e/viewports.mjs
import { createRequire } from 'node:module';
import { serve, launch } from './harness.mjs';
import { walk, frameOf, deviceViewports } from './reading.mjs';

const { devices } = createRequire(import.meta.url)('playwright-core');
const { server, url } = await serve();
const browser = await launch();
const todo = [...deviceViewports(devices).map((v) => ({ label: `${v.name} ${v.width}x${v.height}`, viewport: frameOf(v.width), touch: true })), { label: 'desktop 700', viewport: { width: 700, height: 640 }, touch: false }];
// Devices whose posts give the same frame are walked once (the frame's
// height is the snippet's, whatever the screen's).
const frames = new Map();
for (const v of todo) {
  const key = `${v.viewport.width}x${v.viewport.height}`;
  if (!frames.has(key)) frames.set(key, { ...v, labels: [] });
  frames.get(key).labels.push(v.label);
}
console.log(`${todo.length} viewports, ${frames.size} distinct frames`);
let failed = 0;
const queue = [...frames.values()];
await Promise.all([0, 1, 2].map(async () => {
  for (let v = queue.shift(); v; v = queue.shift()) {
    const context = await browser.newContext({ viewport: v.viewport, hasTouch: v.touch });
    const page = await context.newPage();
    const { faults, views } = await walk(page, url, v.viewport, `${v.viewport.width}x${v.viewport.height}`);
    await context.close();
    for (const label of v.labels) console.log(`${faults.length ? 'FAIL' : 'ok  '} ${label} (frame ${v.viewport.width}x${v.viewport.height}): ${views} views, ${faults.length} faults`);
    for (const f of faults) console.log(`     ${f}`);
    if (faults.length) failed += v.labels.length;
  }
}));
console.log(`${failed} of ${todo.length} viewports with faults`);
await browser.close();
server.close();
process.exitCode = failed ? 1 : 0;
