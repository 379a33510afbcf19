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
await a.evaluate(() => { const c = new BroadcastChannel('workqueue-playground:/:room'); window.__log = []; c.onmessage = (e) => { const m = JSON.parse(e.data); if (m.say === 'clock') return; window.__log.push(`${Math.round(performance.now())} ${e.data.slice(0, 40)} kept=${m.lesson?.kept} press=${m.lesson?.press} dwell=${JSON.stringify(m.lesson?.dwell)}`); }; });
const orig = a.keyboard.press.bind(a.keyboard);
const st = (pg) => pg.evaluate(() => { const n = document.querySelector('[data-testid="lesson-next"], [data-testid="presenter-next-press"]'); return `${document.querySelector('[data-testid="lesson-step-title"]')?.textContent?.slice(0,20)} | ${n?.dataset.press} "${n?.textContent}" now=${document.querySelector('[data-stage]')?.dataset.now} play=${document.querySelector('[data-testid="play"], .transport button[aria-pressed]')?.getAttribute('aria-label') ?? document.querySelector('.transport button')?.textContent}`; });
for (let i = 0; i < 5; i++) {
  await a.keyboard.press('PageDown');
  for (let k = 0; k < 4; k++) { await a.waitForTimeout(200); console.log(i, 'A', await st(a), '\n   P', await st(p)); console.log(await a.evaluate(() => { const l = window.__log.join('\n      '); window.__log = []; return '      ' + l; })); }
}
await browser.close(); server.close();
