import { serve, launch } from './harness.mjs';
const { server, url } = await serve(); const browser = await launch();
for (const [w, h] of [[1920, 1080], [1024, 768]]) {
const context = await browser.newContext({ viewport: { width: w, height: h } });
const p = await context.newPage();
for (const [l, s] of [['herd', 2], ['provider', 2], ['results', 3]]) {
  await p.goto(`${url}/?workshop=1&lesson=${l}&step=${s}`);
  await p.waitForSelector('[data-testid="lesson-step-title"]');
  for (let i = 0; i < 3; i++) { await p.keyboard.press('PageDown'); await p.waitForTimeout(400); }
  await p.waitForTimeout(800);
  await p.screenshot({ path: `/tmp/fill-${w}-${l}.png` });
}
await context.close();
}
await browser.close(); server.close();
