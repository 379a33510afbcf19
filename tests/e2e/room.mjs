// What a room sees, measured the same way on every view: is the control the
// clicker stands for on screen, is the lesson panel whole, are the lanes the
// step talks about in view, how small is the smallest type, how far did the
// virtual clock move. Used by the workshop and embed tests on every step of
// every lesson.
import { parseGoDuration } from './harness.mjs';

// Two frames have been painted (or 300 ms passed, where a page gets no frames).
const painted = (page) => page.evaluate(() => new Promise((r) => {
  setTimeout(r, 300);
  requestAnimationFrame(() => requestAnimationFrame(r));
}));

// Everything about one view, measured in the page as it was last painted
// (after a frame: what a person sees, not a state between two renders).
export async function measure(page) {
  await painted(page);
  return page.evaluate(() => {
    const W = innerWidth, H = innerHeight;
    const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
    const onScreen = (b) => b.top >= -0.5 && b.left >= -0.5 && b.bottom <= H + 0.5 && b.right <= W + 0.5;
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const out = { problems: [] };
    const next = document.querySelector('[data-testid="lesson-next"], [data-testid="lesson-at-end"]');
    out.press = next?.dataset.press || 'at-end';
    if (!next || !shown(next)) out.problems.push('no Next control');
    else if (!onScreen(box(next))) out.problems.push(`Next at ${JSON.stringify(box(next))}`);
    const panel = document.querySelector('[data-testid="lesson"]');
    if (panel) {
      const pb = box(panel);
      if (!onScreen(pb)) out.problems.push(`panel at ${Math.round(pb.top)}..${Math.round(pb.bottom)}`);
      for (const el of panel.querySelectorAll('*')) {
        if (!shown(el)) continue;
        const cs = getComputedStyle(el);
        // Up to 9 px is the last paragraph's bottom margin, not text (a line is
        // over 20 px): more is a line cut.
        if (/(auto|scroll|hidden)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 9) out.problems.push(`${el.className || el.tagName} hides ${el.scrollHeight - el.clientHeight}px`);
        if (/(auto|scroll|hidden)/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1) out.problems.push(`${el.className || el.tagName} hides ${el.scrollWidth - el.clientWidth}px across`);
        const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (text && !onScreen(box(el))) out.problems.push(`text off screen: "${el.textContent.trim().slice(0, 40)}"`);
      }
    } else out.problems.push('no lesson panel');
    for (const lane of document.querySelectorAll('[data-stage] [data-lane].focus')) {
      if (!onScreen(box(lane))) out.problems.push(`lane ${lane.dataset.lane} at ${Math.round(box(lane).top)}..${Math.round(box(lane).bottom)}`);
    }
    // The smallest type a person can see in the stage and the panel.
    let smallest = Infinity, where = ''; out.small = new Set();
    for (const el of document.querySelectorAll('[data-stage] *, [data-testid="lesson"] *')) {
      if (!shown(el) || el.closest('.sr-only, [aria-hidden="true"]')) continue;
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      const b = box(el);
      if (b.bottom < 0 || b.top > H || b.right < 0 || b.left > W) continue;
      // What the room sees: the computed size at the element's zoom (the
      // projector's layout is drawn at the room's scale).
      const size = parseFloat(getComputedStyle(el).fontSize) * (el.currentCSSZoom || 1);
      if (size < 16) out.small.add(`${el.className || el.tagName} ${size}px`);
      if (size < smallest) { smallest = size; where = `${el.className || el.tagName}: "${el.textContent.trim().slice(0, 30)}"`; }
    }
    out.smallest = smallest; out.smallestWhere = where; out.small = [...out.small];
    out.step = document.querySelector('[data-testid="lesson-step-title"]')?.textContent || '';
    out.lesson = panel?.getAttribute('aria-label') || '';
    out.asking = !!document.querySelector('[data-testid="guess"]');
    out.clock = document.querySelector('[data-testid="clock"]')?.textContent || '';
    out.now = document.querySelector('[data-stage]')?.getAttribute('data-now') ?? '';
    // What a press can change: the panel's words and state, the stage, the clock.
    const stage = document.querySelector('[data-stage]');
    out.seen = [panel?.innerText, next?.dataset.press, next?.textContent, stage?.getAttribute('data-now'), stage?.innerText?.length, out.clock, !!document.querySelector('[data-testid="blank-screen"]')].join('|');
    out.scrollY = scrollY;
    return out;
  });
}

// Layout shift without input, summed since the last call.
export async function watchShift(page) {
  await page.evaluate(() => {
    window.__wqShift = 0;
    window.__wqShifted = [];
    const name = (n) => (n ? `${n.className?.baseVal ?? n.className ?? n.nodeName}` : '?').slice(0, 40);
    window.__wqCount = (entries) => {
      for (const e of entries) {
        if (e.hadRecentInput) continue;
        window.__wqShift += e.value;
        // What moved, for the failure message: the largest shifts first.
        for (const s of e.sources) window.__wqShifted.push([e.value, `${name(s.node)} ${Math.round(s.previousRect.top)}->${Math.round(s.currentRect.top)} (${e.value.toFixed(3)})`]);
      }
    };
    window.__wqObserver = new PerformanceObserver((list) => window.__wqCount(list.getEntries()));
    window.__wqObserver.observe({ type: 'layout-shift', buffered: false });
  });
}
// (Entries the observer holds but has not delivered yet, while the page was
// busy, are counted now: a shift is never put down to the wrong view.)
const flush = () => window.__wqObserver && window.__wqCount(window.__wqObserver.takeRecords());
export const takeShift = (page) => page.evaluate(`(${flush})(); (() => { const s = window.__wqShift || 0; window.__wqShift = 0; window.__wqShifted = []; return s; })()`);
export const shifted = (page) => page.evaluate(`(${flush})(); (window.__wqShifted || []).sort((a, b) => b[0] - a[0]).slice(0, 6).map((s) => s[1]).join('; ')`);

// Whether the virtual clock holds while the step's question is open.
export async function clockHolds(page, ms = 1500) {
  const a = parseGoDuration(await page.textContent('[data-testid="clock"]'));
  await page.waitForTimeout(ms);
  const b = parseGoDuration(await page.textContent('[data-testid="clock"]'));
  return { held: a === b, from: a, to: b };
}

// What a reader of an embed meets besides: controls cut by the frame's
// edge or by their own box, and content that spills below the frame.
export async function clipped(page) {
  await painted(page);
  return page.evaluate(() => {
    const W = innerWidth, out = [];
    for (const el of document.querySelectorAll('button, select, input:not(.sr-only), label.button, a')) {
      if (el.getClientRects().length === 0 || el.closest('.sr-only, [hidden]')) continue;
      // A key gliding to its new lane is drawn on its way, not where it is laid out.
      if (el.getAnimations().some((a) => a.playState === 'running')) continue;
      const r = el.getBoundingClientRect();
      const name = (el.textContent || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 30);
      if (r.left < -0.5 || r.right > W + 0.5) out.push(`${name} at ${Math.round(r.left)}..${Math.round(r.right)} of ${W}`);
      else if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1) out.push(`${name} cut inside its button`);
    }
    const spill = document.documentElement.scrollHeight - innerHeight;
    if (spill > 1) out.push(`the page is ${spill}px taller than its frame`);
    return out;
  });
}

// Text drawn over other text on the stage, or spilling out of the box it
// belongs to (a lane, a column): a scale's label over a sentence, a pile's
// count hanging under its lane. What is gliding is skipped: it is drawn on
// its way, not where it is laid out.
export const overlaps = (page) => page.evaluate(() => {
  const out = [];
  const moving = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) if (e.getAnimations().some((a) => a.playState === 'running')) return true;
    return false;
  };
  // (Drawn text counts though it is hidden from screen readers.)
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr-only, [hidden]');
  const items = [];
  for (const el of document.querySelectorAll('[data-stage] *, .stage-figure *')) {
    if (!shown(el) || moving(el)) continue;
    for (const n of el.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const b of range.getClientRects()) if (b.width > 0 && b.height > 0) items.push({ el, b, text: n.textContent.trim().slice(0, 24) });
    }
  }
  const cross = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      if (items[i].el !== items[j].el && cross(items[i].b, items[j].b)) out.push(`"${items[i].text}" drawn over "${items[j].text}"`);
    }
    const box = items[i].el.closest('.lane, .controller-column');
    if (!box) continue;
    const r = box.getBoundingClientRect(), b = items[i].b;
    if (b.left < r.left - 2 || b.right > r.right + 2 || b.top < r.top - 2 || b.bottom > r.bottom + 2) out.push(`"${items[i].text}" spills out of its box`);
  }
  return [...new Set(out)].slice(0, 8);
});

// What a press can change, read now (cheaper than a whole measure).
export const seen = (page) => page.evaluate(() => {
  const panel = document.querySelector('[data-testid="lesson"]');
  const next = document.querySelector('[data-testid="lesson-next"], [data-testid="lesson-at-end"]');
  const stage = document.querySelector('[data-stage]');
  const clock = document.querySelector('[data-testid="clock"]')?.textContent || '';
  return [panel?.innerText, next?.dataset.press, next?.textContent, stage?.getAttribute('data-now'), stage?.innerText?.length, clock, !!document.querySelector('[data-testid="blank-screen"]')].join('|');
});

// Presses `key` and waits (1 s at most) for the panel, the stage or the
// clock to change: whether it did, and how long it took.
export async function answers(page, key) {
  const before = await seen(page);
  const start = Date.now();
  await page.keyboard.press(key);
  for (;;) {
    if ((await seen(page)) !== before) return { changed: true, ms: Date.now() - start };
    if (Date.now() - start > 1000) return { changed: false, ms: Date.now() - start };
    await page.waitForTimeout(30);
  }
}

// A clicker's blank-screen keys on an open prediction: b and . blank the
// projector and show it again (Escape too), and type nothing into the guess.
export async function blankKeys(page) {
  const problems = [];
  const blank = () => page.evaluate(() => !!document.querySelector('[data-testid="blank-screen"]'));
  for (const [on, off] of [['b', 'b'], ['.', '.'], ['b', 'Escape']]) {
    await page.keyboard.press(on);
    await page.waitForTimeout(80);
    if (!(await blank())) problems.push(`${on} did not blank the screen`);
    await page.keyboard.press(off);
    await page.waitForTimeout(80);
    if (await blank()) problems.push(`${off} did not show the screen again`);
  }
  const typed = await page.evaluate(() => document.querySelector('[data-testid="guess"]')?.value ?? '');
  if (typed) problems.push(`the clicker typed "${typed}" into the guess`);
  return problems;
}
