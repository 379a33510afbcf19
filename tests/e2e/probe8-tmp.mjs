import { serve, launch } from './harness.mjs';
const { server, url } = await serve(); const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const p = await context.newPage();
await p.goto(`${url}/?presenter=room&lesson=herd&step=3&lessons=herd`);
await p.waitForSelector('[data-testid="lesson-step-title"]');
const a = await context.newPage();
await a.setViewportSize({ width: 1920, height: 1080 });
await a.goto(`${url}/?audience=room`);
await a.waitForSelector('[data-testid="lesson-step-title"]');
await a.waitForTimeout(1000);
const st = (pg) => pg.evaluate(() => { const n = document.querySelector('[data-testid="lesson-next"], [data-testid="presenter-next-press"]'); return `${document.querySelector('[data-testid="lesson-step-title"]')?.textContent?.slice(0,20)} | ${n?.dataset.press} "${n?.textContent}" now=${document.querySelector('[data-stage]')?.dataset.now} play=${document.querySelector('[data-testid="play"], .transport button[aria-pressed]')?.getAttribute('aria-label') ?? document.querySelector('.transport button')?.textContent}`; });
for (let i = 0; i < 9; i++) {
  await a.keyboard.press('PageDown');
  for (let k = 0; k < 4; k++) { await a.waitForTimeout(200); console.log(i, 'A', await st(a), '\n   P', await st(p)); }
}
await browser.close(); server.close();
