// Lighthouse, the judge web developers already trust, on the built page:
// every lesson's workshop page (desktop: a projector's browser) and every
// built-in step embedded (mobile, Lighthouse's simulated slow 4G). Prints
// `lighthouse_<page>_<figure> value` lines, then the worst of each figure,
// then, for the embedded steps, each against the targets
// (performance >= 95, accessibility 100, LCP <= 2.5 s, CLS <= 0.01) and the
// pages that miss one.
// Run by `scripts/bench.sh` (a benchmark, never a timed test).
//
//   node tests/lighthouse/run.mjs [workshop|embed]...   (both by default)
//   node tests/lighthouse/run.mjs embed:herd             (one lesson's steps)
import fs from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import { serve, root, chromiumPath } from '../e2e/harness.mjs';

const which = process.argv.slice(2);
const want = (kind) => which.length === 0 || which.some((w) => w.split(':')[0] === kind);
// `embed:<id>` keeps one lesson's steps.
const only = which.filter((w) => w.includes(':')).map((w) => w.split(':')[1]);

// Every built-in lesson, and the number of its steps.
const lessons = fs.readdirSync(path.join(root, 'lessons'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => [f.replace(/\.md$/, ''), (fs.readFileSync(path.join(root, 'lessons', f), 'utf8').match(/^```step$/gm) || []).length]);

const pages = [];
if (want('workshop')) {
  for (const [id] of lessons) pages.push({ name: `workshop_${id}`, query: `?workshop=1&lesson=${id}&step=1`, config: desktopConfig });
}
if (want('embed')) {
  for (const [id, steps] of lessons.filter(([id]) => only.length === 0 || only.includes(id))) {
    for (let s = 1; s <= steps; s++) pages.push({ name: `embed_${id}_${s}`, query: `?embed=1&lesson=${id}&step=${s}`, config: undefined });
  }
}

const { server, url } = await serve(undefined, { gzip: true });
const chrome = await chromeLauncher.launch({
  chromePath: chromiumPath(),
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const worst = {};
// The embed's targets (issue 47), per figure.
const TARGETS = { performance: (v) => v >= 95, accessibility: (v) => v >= 100, lcp_ms: (v) => v <= 2500, cls: (v) => v <= 0.01 };
const misses = [];
const note = (figure, value, page, higherIsBetter) => {
  const w = worst[figure];
  if (!w || (higherIsBetter ? value < w.value : value > w.value)) worst[figure] = { value, page };
};
try {
  // One discarded run first: the first page after Chrome starts measured a
  // cold browser (max-of 1 scored TBT 323 ms first in a run, 53 ms alone).
  if (pages.length > 0) {
    await lighthouse(`${url}/${pages[0].query}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }, pages[0].config);
  }
  for (const p of pages) {
    const result = await lighthouse(`${url}/${p.query}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    }, p.config);
    const lhr = result.lhr;
    const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    const audit = (a) => lhr.audits[a]?.numericValue ?? NaN;
    const figures = {
      performance: [score('performance'), true],
      accessibility: [score('accessibility'), true],
      cls: [Number(audit('cumulative-layout-shift').toFixed(3)), false],
      lcp_ms: [Math.round(audit('largest-contentful-paint')), false],
      tbt_ms: [Math.round(audit('total-blocking-time')), false],
    };
    for (const [figure, [value, higher]] of Object.entries(figures)) {
      console.log(`lighthouse_${p.name}_${figure} ${value}`);
      note(`${p.name.split('_')[0]}_${figure}`, value, p.name, higher);
    }
    if (p.name.startsWith('embed_')) {
      const missed = Object.entries(TARGETS).filter(([f, ok]) => !ok(figures[f][0])).map(([f]) => `${f} ${figures[f][0]}`);
      // Which accessibility audits failed, to know what to fix.
      const failed = (lhr.categories.accessibility?.auditRefs || []).filter((r) => r.weight > 0 && lhr.audits[r.id]?.score === 0).map((r) => r.id);
      if (failed.length) missed.push(`failed ${failed.join(' ')}`);
      if (missed.length) misses.push(`${p.name}: ${missed.join(', ')}`);
    }
  }
} finally {
  await chrome.kill();
  server.close();
}
for (const [figure, { value, page }] of Object.entries(worst)) console.log(`lighthouse_worst_${figure} ${value} (${page})`);
if (want('embed')) {
  console.log(`lighthouse_embed_pages_missing_a_target ${misses.length} of ${pages.filter((p) => p.name.startsWith('embed_')).length}`);
  for (const m of misses) console.log(`#   ${m}`);
}
