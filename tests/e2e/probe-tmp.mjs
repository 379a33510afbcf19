import { serve, launch } from './harness.mjs';
const { server, url } = await serve(); const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const p = await context.newPage();
await p.goto(`${url}/?presenter=room&lesson=herd&step=4&lessons=herd,sets`);
await p.waitForSelector('[data-testid="lesson-step-title"]');
const a = await context.newPage();
await a.setViewportSize({ width: 800, height: 600 });
await a.goto(`${url}/?audience=room`);
await a.waitForSelector('[data-testid="lesson-step-title"]');
await a.waitForTimeout(1000);
await a.evaluate(() => { window.__s = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__s.push(`${Math.round(e.startTime)} ${e.value.toFixed(3)} input=${e.hadRecentInput} ` + e.sources.map((s) => `${(s.node?.className || s.node?.nodeName || '?').toString().slice(0,30)} ${Math.round(s.previousRect.top)}->${Math.round(s.currentRect.top)} h${Math.round(s.previousRect.height)}->${Math.round(s.currentRect.height)}`).join('; ')); }).observe({ type: 'layout-shift' }); });
const title = () => a.evaluate(() => `${Math.round(performance.now())} ` + document.querySelector('[data-testid="lesson-step-title"]')?.textContent + ' | ' + document.querySelector('[data-testid="lesson-next"]')?.dataset.press);
for (let i = 0; i < 6; i++) {
  console.log(await title());
  await a.keyboard.press('PageDown');
  await a.waitForTimeout(1500);
  console.log((await a.evaluate(() => { const s = window.__s; window.__s = []; return s; })).join('\n'));
  await a.screenshot({ path: `/tmp/probe-${i}.png` });
}
await browser.close(); server.close();
