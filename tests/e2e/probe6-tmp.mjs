import { serve, launch } from './harness.mjs';
const { server, url } = await serve(); const browser = await launch();
const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
const p = await context.newPage();
await p.goto(`${url}/?workshop=1&lesson=provider&step=2&lessons=provider`);
await p.waitForSelector('[data-testid="lesson-step-title"]');
for (let i = 0; i < 4; i++) { await p.keyboard.press('PageDown'); await p.waitForTimeout(i == 2 ? 200 : 600); await p.screenshot({ path: `/tmp/prov-${i}.png` }); }
await p.waitForTimeout(1500); await p.screenshot({ path: `/tmp/prov-9.png` });
await browser.close(); server.close();
