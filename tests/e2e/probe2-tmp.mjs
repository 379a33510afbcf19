import { serve, launch } from './harness.mjs';
const { server, url } = await serve(); const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const p = await context.newPage();
await p.goto(`${url}/?presenter=room&lesson=herd&step=2&lessons=herd,sets`);
await p.waitForSelector('[data-testid="lesson-step-title"]');
const a = await context.newPage();
await a.setViewportSize({ width: 800, height: 600 });
await a.goto(`${url}/?audience=room`);
await a.waitForSelector('[data-testid="lesson-step-title"]');
await a.waitForTimeout(1000);
const st = (pg) => pg.evaluate(() => { const n = document.querySelector('[data-testid="lesson-next"]'); return `${Math.round(performance.now())} ${document.querySelector('[data-testid="lesson-step-title"]')?.textContent} | ${n?.dataset.press} "${n?.textContent}" clock=${document.querySelector('[data-testid="clock"]')?.textContent}`; });
for (let i = 0; i < 14; i++) {
  console.log('A', await st(a), '\n  P', await st(p));
  await a.keyboard.press('PageDown');
  for (let k = 0; k < 5; k++) { await a.waitForTimeout(100); console.log('   a', await st(a)); }
}
await browser.close(); server.close();
