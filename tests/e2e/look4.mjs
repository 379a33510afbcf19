import { serve, launch, shot } from '/work/main/tests/e2e/harness.mjs';
import { measure } from '/work/main/tests/e2e/room.mjs';
const [w,h,id,step] = process.argv.slice(2);
const { server, url } = await serve();
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: +w, height: +h }, hasTouch: true });
const page = await ctx.newPage();
await page.goto(`${url}/?embed=1&lesson=${id}&step=${step}`);
await page.waitForSelector('[data-testid="lesson-step-title"]');
for (let i = 0; i < 4; i++) {
  await page.waitForTimeout(200);
  const m = await measure(page);
  const info = await page.evaluate(() => { const b = document.querySelector('.lesson-body'); const bt = b.getBoundingClientRect().top; return { ch: b.clientHeight, sh: b.scrollHeight, vis: [...b.querySelectorAll('*')].filter(e => e.getClientRects().length && !e.closest('[hidden]') && ['P','UL','LI','SPAN','DIV'].includes(e.tagName)).map(e => `${e.tagName}.${e.className}:${Math.round(e.getBoundingClientRect().top-bt)}-${Math.round(e.getBoundingClientRect().bottom-bt)}`).slice(0,12) }; });
  console.log(i, m.press, JSON.stringify(info), m.problems.join(';'));
  if (m.problems.length) await shot(page, `dbg-${id}-${step}-${i}`);
  await page.click('[data-testid="lesson-next"]');
}
await browser.close(); server.close();
