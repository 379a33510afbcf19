// Lesson files from anyone, in the page: huge, slow, deep, odd bytes.
// Each is answered or refused while the page keeps drawing (no frame gap
// over 200 ms), a valid lesson opens within 2 s after any of them, and no
// request leaves the page's origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, open, dist, root } from './harness.mjs';

const example = fs.readFileSync(path.join(root, 'docs/example-lesson.md'), 'utf8');
const failing = '"scenario": {"version": 2, "controllers": [{"default_script": {"type": "always", "outcome": {"kind": "error"}}}]}';
const step = (title, body) => `## ${title}\n\nText.\n\n\`\`\`step\n{"focus": {"lanes": ["waiting"]}, ${body}}\n\`\`\`\n\n`;
const setup = (inputs, runTo) => `"setup": {${failing}, "inputs": [${inputs}], "run_to": "${runTo}"}`;
const addMany = (n) => `{"do": {"input": "add_many", "prefix": "k", "count": ${n}}}`;

// name -> [file text (or bytes), what the page must end with]
const HOSTILE = {
  'hundred-steps.md': [`# H\n\n${Array.from({ length: 100 }, (_, i) => step(`S${i}`, setup(addMany(250000), '1s'))).join('')}`, 'refused'],
  'million-keys.md': [`# H\n\n${step('S', `${setup(addMany(1000000), '0s')}, "question": {"ask": "?", "query": {"requeues": {"until": "10s"}}}`)}`, 'either'],
  'week-of-keys.md': [`# H\n\n${step('S', setup(addMany(250000), '168h'))}`, 'refused'],
  'resync-storm.md': [`# H\n\n${step('S', setup(`${addMany(250000)}, {"do": {"input": "resync", "period_ns": "10ms"}}`, '1h'))}`, 'refused'],
  'far-window.md': [`# H\n\n${step('S', `${setup(addMany(1), '0s')}, "question": {"ask": "?", "query": {"requeues": {"until": 1000000000000000000}}}`)}`, 'refused'],
  'deep-lists.md': [`# H\n\n${step('S', setup(addMany(1), '0s'))}${Array.from({ length: 3000 }, (_, i) => `${'  '.repeat(i)}- level ${i}\n`).join('')}`.slice(0, 250000), 'refused'],
  'deep-quotes.md': [`# H\n\n${step('S', setup(addMany(1), '0s'))}${'>'.repeat(100000)} deep\n`, 'refused'],
  'not-utf8.md': [Buffer.concat([Buffer.from(`# H\n\n${step('S', setup(addMany(1), '0s'))}Caf`), Buffer.from([0xe9, 0x0a])]), 'refused'],
  'huge.md': [Buffer.alloc(50 * 1024 * 1024, 'a'), 'notice'],
  // Within every budget, and slow to answer: 8 steps of the most keys a scene may hold.
  'heavy.md': [`# H\n\n${Array.from({ length: 8 }, (_, i) => step(`S${i}`, `${setup(addMany(250000), '0s')}, "question": {"ask": "?", "query": {"requeues": {"until": "10s"}}}`)).join('')}`, 'opened'],
};

let server, url, browser, dir;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wq-hostile-'));
  fs.cpSync(dist, dir, { recursive: true });
  for (const [name, [text]] of Object.entries(HOSTILE)) fs.writeFileSync(path.join(dir, name), text);
  fs.writeFileSync(path.join(dir, 'good.md'), example);
  ({ server, url } = await serve(dir));
  browser = await launch();
});
after(async () => { await browser?.close(); server?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

// Frame timestamps, from the first frame on.
const frames = () => {
  window.__frames = [];
  const tick = (t) => { window.__frames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
};
const worstGap = (page) => page.evaluate(() => {
  const f = window.__frames.splice(0);
  let worst = 0;
  for (let i = 1; i < f.length; i++) worst = Math.max(worst, f[i] - f[i - 1]);
  return worst;
});

// What the page ends with for a file: its lesson, a refusal, or a notice.
async function outcome(page, timeout = 20000) {
  await page.waitForFunction(() => document.querySelector('[data-testid="lesson-refusal"], [data-testid="lesson-step-title"], [data-testid="notice"].error'), null, { timeout });
  return page.evaluate(() => document.querySelector('[data-testid="lesson-refusal"]') ? 'refused'
    : document.querySelector('[data-testid="lesson-step-title"]') ? 'opened' : 'notice');
}

for (const how of ['upload', 'link']) {
  test(`hostile lesson files by ${how === 'upload' ? 'the Load dialog' : '?lesson-file='}: refused or answered, the page never stalls, a good lesson opens right after`, async () => {
    const faults = [];
    const figures = [];
    for (const [name, [text, expected]] of Object.entries(HOSTILE)) {
      const target = how === 'upload' ? `${url}/` : `${url}/?lesson-file=${name}`;
      const { page, context, problems } = await open(browser, target, { initScript: frames });
      // The page's own first load is not the file's doing: gaps count from here.
      await page.waitForTimeout(300);
      await worstGap(page);
      const started = Date.now();
      if (how === 'upload') {
        // (As a file on disk: the browser is handed its path, as a person's would be.)
        await page.setInputFiles('[data-testid="lesson-upload"]', path.join(dir, name));
      }
      // Either the outcome, or (still being read) the progress of its reading.
      let got = await outcome(page).catch(() => 'nothing');
      const took = Date.now() - started;
      if (expected !== 'either' && got !== expected) faults.push(`${name}: ${got}, expected ${expected}`);
      if (got === 'refused') {
        const said = await page.evaluate(() => document.querySelector('[data-testid="refusal-reason"]')?.textContent ?? '');
        if (!/^Line \d+/.test(said)) faults.push(`${name}: the refusal names no line: ${said}`);
      }
      // Then a good lesson, at once: it opens within 2 s.
      const before = Date.now();
      await page.evaluate(() => document.querySelector('[data-testid="lesson-refusal"] [aria-label="Dismiss"]')?.click());
      await page.setInputFiles('[data-testid="lesson-upload"]', { name: 'good.md', mimeType: 'text/markdown', buffer: Buffer.from(example) });
      await page.waitForFunction(() => document.querySelector('[data-testid="lesson-step-title"]')?.textContent === 'Five hundred keys, two failures each', null, { timeout: 15000 })
        .catch(() => faults.push(`${name}: the good lesson did not open`));
      const good = Date.now() - before;
      if (good > 2000) faults.push(`${name}: the good lesson opened ${good} ms after`);
      const gap = await worstGap(page);
      if (gap > 200) faults.push(`${name}: a frame gap of ${gap.toFixed(0)} ms`);
      if (problems.external.length) faults.push(`${name}: requests left the origin: ${problems.external}`);
      if (problems.console.length) faults.push(`${name}: console: ${problems.console}`);
      figures.push(`${name}: ${got} after ${took} ms, good lesson after ${good} ms, worst frame gap ${gap.toFixed(0)} ms`);
      await context.close();
    }
    console.log(figures.map((f) => `# ${f}`).join('\n'));
    assert.deepEqual(faults, []);
  });
}

test('a file with a mistake in each of two steps lists both, each at its line', async () => {
  const { page, context } = await open(browser, url);
  const text = example
    .replace('"reconcile_ns": "20ms"', '"reconcile_ns": "20 ms"')
    .replace('"lanes": ["bucket"]', '"lanes": ["backlog"]');
  const lines = ['20 ms', '"backlog"'].map((n) => text.split('\n').findIndex((l) => l.includes(n)) + 1);
  await page.setInputFiles('[data-testid="lesson-upload"]', { name: 'two.md', mimeType: 'text/markdown', buffer: Buffer.from(text) });
  await page.waitForSelector('[data-testid="lesson-refusal"]', { timeout: 20000 });
  const said = await page.$$eval('[data-testid="refusal-reason"]', (ps) => ps.map((p) => p.textContent));
  assert.equal(said.length, 2, said.join(' | '));
  said.forEach((s, i) => assert.ok(s.startsWith(`Line ${lines[i]}`), `${s} (expected line ${lines[i]})`));
  await context.close();
});

test('a lesson loaded while another is still being read opens at once: the old reading is stopped', async () => {
  const { page, context, problems } = await open(browser, url);
  await page.setInputFiles('[data-testid="lesson-upload"]', path.join(dir, 'heavy.md'));
  await page.waitForSelector('[data-testid="lesson-loading"]');
  const before = Date.now();
  await page.setInputFiles('[data-testid="lesson-upload"]', { name: 'good.md', mimeType: 'text/markdown', buffer: Buffer.from(example) });
  await page.waitForFunction(() => document.querySelector('[data-testid="lesson-step-title"]')?.textContent === 'Five hundred keys, two failures each', null, { timeout: 15000 });
  const took = Date.now() - before;
  console.log(`# the good lesson opened ${took} ms after, while a heavy lesson was being answered`);
  assert.ok(took <= 2000, `${took} ms`);
  // Stop: a long reading can be stopped by hand too.
  await page.setInputFiles('[data-testid="lesson-upload"]', path.join(dir, 'heavy.md'));
  await page.waitForSelector('[data-testid="lesson-cancel"]');
  await page.click('[data-testid="lesson-cancel"]');
  await page.waitForFunction(() => !document.querySelector('[data-testid="lesson-loading"]'));
  assert.match(await page.textContent('[data-testid="notice"]'), /Stopped opening the lesson heavy/);
  assert.deepEqual(problems.console, []);
  await context.close();
});
