import { serve, launch } from './harness.mjs';
const { server, url } = await serve(); const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const p = await context.newPage();
await p.goto(`${url}/?presenter=room&lesson=provider&step=2&lessons=provider`);
await p.waitForSelector('[data-testid="lesson-step-title"]');
const a = await context.newPage();
await a.setViewportSize({ width: 800, height: 600 });
await a.goto(`${url}/?audience=room`);
await a.waitForSelector('[data-testid="lesson-step-title"]');
await a.waitForTimeout(1000);
await a.evaluate(() => { window.__s = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.value > 0.001) window.__s.push(`${Math.round(e.startTime)} ${e.value.toFixed(3)} input=${e.hadRecentInput} ` + e.sources.map((s) => `${(s.node?.outerHTML || '?').slice(0,80)} ${Math.round(s.previousRect.top)}->${Math.round(s.currentRect.top)} h${Math.round(s.previousRect.height)}->${Math.round(s.currentRect.height)}`).join('\n     ')); }).observe({ type: 'layout-shift' }); });
const st = (pg) => pg.evaluate(() => { const n = document.querySelector('[data-testid="lesson-next"]'); return `${Math.round(performance.now())} ${document.querySelector('[data-testid="lesson-step-title"]')?.textContent} | ${n?.dataset.press} "${n?.textContent}" clock=${document.querySelector('[data-testid="clock"]')?.textContent}`; });
for (let i = 0; i < 12; i++) {
  console.log('A', await st(a));
  await a.keyboard.press('PageDown');
  await a.waitForTimeout(700);
  console.log((await a.evaluate(() => { const s = window.__s; window.__s = []; return s; })).join('\n'));
}
await browser.close(); server.close();
