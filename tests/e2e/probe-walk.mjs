import { serve, launch, shot } from './harness.mjs';
import { measure, watchShift, takeShift, clockHolds } from './room.mjs';
const [w, h, start = 'sets', maxViews = '400'] = process.argv.slice(2);
const { server, url } = await serve();
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: +w, height: +h } });
const page = await ctx.newPage();
const errs = [];
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errs.push(m.text()); });
page.on('pageerror', (e) => errs.push(String(e)));
await page.goto(`${url}/?workshop=1&lesson=${start}&step=1`);
await page.waitForSelector('[data-testid="lesson-step-title"]');
await watchShift(page);
let views = 0, bad = 0, last = '', stuck = 0;
const summary = {}; const smalls = new Set();
while (views < +maxViews) {
  await page.waitForTimeout(150);
  const m = await measure(page);
  const key = m.lesson + ' / ' + m.step;
  if (m.asking) { const c = await clockHolds(page, 1200); if (!c.held) m.problems.push(`clock moved ${c.from}->${c.to} while asking`); }
  const shift = await takeShift(page);
  if (shift >= 0.02) m.problems.push(`shift ${shift.toFixed(3)}`);
  if (m.smallest < 16) { m.problems.push(`type ${m.smallest}px`); for (const x of m.small) smalls.add(x); }
  if (m.problems.length) { bad++; (summary[key] ||= []).push(`[${m.press}] ` + m.problems.join('; ')); }
  if (views % 5 === 0) await shot(page, `probe-${w}x${h}-${views}`);
  views++;
  if (m.press === 'at-end') break;
  if (key === last) stuck++; else { stuck = 0; last = key; }
  if (stuck > 25) { console.log('STUCK at', key, m.press); break; }
  await page.keyboard.press('PageDown');
  await page.waitForTimeout(m.press === 'dwelling' ? 900 : 600);
}
for (const [k, v] of Object.entries(summary)) console.log(k, '\n   ', v.slice(0, 3).join('\n    '));
console.log([...smalls].join('\n')); console.log(`views ${views}, with problems ${bad}, errors ${errs.length}`, errs.slice(0, 5));
await browser.close(); server.close();
