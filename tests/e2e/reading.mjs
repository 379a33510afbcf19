// An embed read where it is embedded: every step of every built-in lesson,
// pressed through as a reader does, in a frame of the snippet's height (640)
// as wide as a post gives it on a device (its width less the post's margins,
// at most 700). At each view: the narration at 16 px or more in whole
// words, with room for 5 lines a page or more; no text in the frame under
// 12 px; no control cut or clipped, no text cut by its box, no text over
// other text or out of its box, no part of the lesson panel off screen
// (room.mjs); and the frame's content does not
// shift by itself. Shared by embed.test.mjs (five frames) and viewports.mjs
// (every phone and tablet of playwright-core's list).
import fs from 'node:fs';
import path from 'node:path';
import { root, shots } from './harness.mjs';
import { measure, clipped, overlaps, watchShift, takeShift, shifted } from './room.mjs';

export const LESSONS = fs.readdirSync(path.join(root, 'lessons')).filter((f) => f.endsWith('.md')).map((f) => f.replace(/\.md$/, ''));
export const stepsOf = (id) => (fs.readFileSync(path.join(root, 'lessons', `${id}.md`), 'utf8').match(/^```step$/gm) || []).length;

// The frame a post gives an embed on a device `width` px wide (the demo
// post's margins are 1rem each side; the snippet caps it at 700).
export const frameOf = (width) => ({ width: Math.min(700, width - 32), height: 640 });

// The portrait phones and tablets of playwright-core's device list, one
// per distinct viewport.
export function deviceViewports(devices) {
  const seen = new Map();
  for (const [name, d] of Object.entries(devices)) {
    if (!d.isMobile || / landscape$/.test(name)) continue;
    const key = `${d.viewport.width}x${d.viewport.height}`;
    if (!seen.has(key)) seen.set(key, { name, ...d.viewport });
  }
  return [...seen.values()].sort((a, b) => a.width - b.width || a.height - b.height);
}

// What a reader cannot read at this view (besides room.mjs's checks).
const reading = () => {
  const out = [];
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr-only, [aria-hidden="true"], [hidden]');
  const name = (el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${el.textContent.trim().slice(0, 24)}"`;
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el) || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const cs = getComputedStyle(el);
    const size = parseFloat(cs.fontSize) * (el.currentCSSZoom || 1);
    if (size < 11.95) out.push(`${size.toFixed(1)} px text: ${name(el)}`);
    // Text cut by its own box: an ellipsis, or a clipped overflow.
    if (/(hidden|clip)/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1) out.push(`cut across: ${name(el)}`);
  }
  for (const text of document.querySelectorAll('[data-testid="lesson"] .lesson-text')) {
    if (!shown(text)) continue;
    const cs = getComputedStyle(text);
    if (parseFloat(cs.fontSize) < 16) out.push(`narration at ${cs.fontSize}`);
    if (cs.overflowWrap === 'anywhere' || cs.wordBreak === 'break-all') out.push('narration breaks inside words');
    const body = text.closest('.lesson-body');
    const lines = body.clientHeight / parseFloat(cs.lineHeight);
    if (lines < 5) out.push(`narration pages of ${lines.toFixed(1)} lines`);
  }
  return out;
};

// Walks every step of every lesson embedded in a frame of `viewport` on
// `page`; returns the faults found, each with the view it was found at,
// and the number of views seen. Screenshots go only with a fault.
export async function walk(page, url, viewport, label = `${viewport.width}x${viewport.height}`) {
  const faults = [];
  let views = 0;
  const dir = path.join(shots, 'embed');
  fs.mkdirSync(dir, { recursive: true });
  for (const id of LESSONS) {
    for (let step = 1; step <= stepsOf(id); step++) {
      await page.goto(`${url}/?embed=1&lesson=${id}&step=${step}`);
      await watchShift(page);
      await page.waitForSelector('[data-testid="lesson-step-title"]');
      for (let press = 0; press < 6; press++) {
        const m = await measure(page);
        const found = [...m.problems, ...(await clipped(page)), ...(await overlaps(page)), ...(await page.evaluate(reading))];
        // (A step opening: nothing moves once painted. Later a press moves
        // what it means to, counted as input.)
        const what = await shifted(page);
        const shift = await takeShift(page);
        if (press === 0 && shift > 0.01) found.push(`the frame's content shifted ${shift.toFixed(3)}: ${what}`);
        if (found.length) {
          for (const f of found) faults.push(`${label} ${id} step ${step} [${m.press}]: ${f}`);
          await page.screenshot({ path: path.join(dir, `${label}-${id}-${step}-${press}.png`) });
        }
        views += 1;
        if (m.press === 'dwelling' || m.press === 'skipped') {
          // The scene under way: its stage is read too (keys piling up,
          // the bucket in debt), once it has had a moment to fill.
          await page.waitForTimeout(500);
          for (const f of await overlaps(page)) faults.push(`${label} ${id} step ${step} [playing]: ${f}`);
        }
        if (['moved', 'dwelling', 'at-end'].includes(m.press)) break;
        await page.click('[data-testid="lesson-next"]');
      }
    }
  }
  return { faults, views };
}
