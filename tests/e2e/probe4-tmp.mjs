import { serve, launch } from './harness.mjs';
const { server, url } = await serve(); const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
for (const mode of ['presenter=room', 'workshop=1']) {
const p = await context.newPage();
await p.goto(`${url}/?${mode}&lesson=herd&step=2&lessons=herd,sets`);
await p.waitForSelector('[data-testid="lesson-step-title"]');
const st = (pg) => pg.evaluate(() => { const n = document.querySelector('[data-testid="lesson-next"], [data-testid="presenter-next-press"]'); return `${Math.round(performance.now())} ${n?.dataset.press} "${n?.textContent}" clock=${document.querySelector('[data-testid="clock"]')?.textContent} now=${document.querySelector('[data-stage]')?.dataset.now}`; });
for (let i = 0; i < 4; i++) {
  await p.keyboard.press('PageDown');
  for (let k = 0; k < 4; k++) { await p.waitForTimeout(250); console.log(mode, i, await st(p)); }
}
await p.close();
}
await browser.close(); server.close();
