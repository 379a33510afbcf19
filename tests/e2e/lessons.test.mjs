// A trainer's own lesson: loaded from a file and from a path on the site,
// answered by the core, shared, embedded; and three broken files, each
// refused with its line while the open lesson keeps working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, open, shot, root, onPage } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const example = fs.readFileSync(path.join(root, 'docs/example-lesson.md'), 'utf8');
const title = (page) => page.textContent('[data-testid="lesson-step-title"]');

function file(name, text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wq-lesson-'));
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

test('a lesson uploaded as a file opens, and the core answers its question', () => onPage(browser, url, async ({ page }) => {
  await page.setInputFiles('[data-testid="lesson-upload"]', file('after-the-outage.md', example));
  await page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 20000 });
  assert.equal(await title(page), 'Five hundred keys, two failures each');
  assert.match(await page.textContent('[data-testid="lesson"]'), /After the outage/);
  // The prose keeps its light formatting.
  assert.ok(await page.$('[data-testid="lesson"] .lesson-text strong'), 'bold from **two workers**');
  await page.fill('[data-testid="guess"]', '90s');
  await page.click('[data-testid="reveal"]');
  assert.match(await page.textContent('[data-testid="answer-value"]'), /^t=1m30/);
  assert.match(await page.textContent('[data-testid="answer"]'), /you got it/);
  await shot(page, '70-lesson-uploaded');
}));

test('a lesson from a path on the site opens with ?lesson-file=, is shared and embedded', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson-file=example-lesson.md`);
  await page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 20000 });
  assert.equal(await title(page), 'Five hundred keys, two failures each');
  // Share: the link carries the lesson's text; it opens anywhere.
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  assert.match(link, /#v2\./);
  await page.click('.modal [aria-label="Close"]');
  const other = await open(browser, link.replace(/^https?:\/\/[^/]+/, url));
  await other.page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 20000 });
  assert.equal(await title(other.page), 'Five hundred keys, two failures each');
  await other.context.close();
  // Embed: the snippet opens the same lesson in a frame.
  await page.click('[data-testid="embed"]');
  const snippet = await page.inputValue('[data-testid="embed-snippet"]');
  const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  assert.match(src, /embed=1/);
  const frame = await open(browser, src.replace(/^https?:\/\/[^/]+/, url), { viewport: { width: 700, height: 600 } });
  await frame.page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 20000 });
  assert.equal(await title(frame.page), 'Five hundred keys, two failures each');
  await shot(frame.page, '71-lesson-embedded');
  await frame.context.close();
  assert.deepEqual(problems.console, []);
  await context.close();
});

// A link with ?lesson-file= never makes the page fetch from another host,
// whatever characters the URL standard strips (tab, newline, C0 controls) or
// rewrites (backslashes), and says so in words.
test('?lesson-file= only reads from this site, however the path is spelled', async () => {
  const values = ['//evil.example/x.md', '/\t/evil.example/x.md', '/\n/evil.example/x.md', '\u0001//evil.example/x.md',
    '\\\\evil.example\\x.md', '/\\evil.example/x.md', 'https://evil.example/x.md', 'h\ttps://evil.example/x.md'];
  for (const value of values) {
    const { page, context, problems } = await open(browser, `${url}/?lesson-file=${encodeURIComponent(value)}`);
    await page.waitForSelector('.notice', { timeout: 10000 });
    assert.match(await page.textContent('.notice'), /not a path on this site/, JSON.stringify(value));
    assert.deepEqual(problems.external, [], `nothing fetched from another host for ${JSON.stringify(value)}`);
    await context.close();
  }
});

test('three mistakes, each refused by line and field, and the open lesson keeps working', async () => {
  const { page, context } = await open(browser, `${url}/?lesson=backoff`);
  await page.waitForSelector('[data-testid="lesson-step-title"]', { timeout: 20000 });
  const mistakes = [
    // An unknown field.
    [example.replace('"tolerance": 0.1,', '"tolerance": 0.1, "hint": "x",'), '"hint"', /unknown field `hint`/],
    // A bad duration.
    [example.replace('"reconcile_ns": "20ms"', '"reconcile_ns": "20 ms"'), '20 ms', /reconcile_ns|duration/],
    // A lane the stage does not have.
    [example.replace('"lanes": ["bucket", "waiting"]', '"lanes": ["bucket", "backlog"]'), '"backlog"', /backlog/],
  ];
  for (const [text, needle, reason] of mistakes) {
    const line = text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    await page.setInputFiles('[data-testid="lesson-upload"]', file('broken.md', text));
    await page.waitForSelector('[data-testid="lesson-refusal"]', { timeout: 20000 });
    const said = await page.textContent('[data-testid="refusal-reason"]');
    assert.ok(said.startsWith(`Line ${line}`), `${said} (expected line ${line})`);
    assert.match(said, reason);
    assert.match(await page.textContent('.excerpt-line.bad'), new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    // What was open is still open and still runs.
    assert.match(await title(page), /Doubling delays/);
    await shot(page, `72-lesson-refused-${mistakes.findIndex((m) => m[1] === needle)}`);
    await page.click('[data-testid="lesson-refusal"] [aria-label="Dismiss"]');
  }
  await context.close();
});

test('an exercise: the goal is checked on the learner\'s settings, figure by figure', async () => {
  const { page, context, problems } = await open(browser, `${url}/?lesson=herd&step=5`);
  await page.waitForSelector('[data-testid="goal"]', { timeout: 20000 });
  await page.click('[data-testid="goal-check"]');
  await page.waitForSelector('[data-testid="goal-result"]', { timeout: 20000 });
  assert.match(await page.textContent('[data-testid="goal-result"]'), /Not met yet/);
  // A faster bucket: 50 tokens a second.
  await page.click('[data-testid="tab-settings"]');
  await page.fill('#f-qps', '50');
  await page.click('[data-testid="apply"]');
  await page.click('[data-testid="goal-check"]');
  await page.waitForFunction(() => /Goal met/.test(document.querySelector('[data-testid="goal-result"]')?.textContent || ''), null, { timeout: 20000 });
  await shot(page, '73-exercise-met');
  assert.deepEqual(problems.console, []);
  await context.close();
});

// A blogger's reader chose a reconcile's result with its number key, and
// Enter then did nothing: focus had fallen to the stage. However the result
// is chosen, the lesson's way on takes the focus, and Enter goes on.
test('a result chosen by its number key leaves the focus on the lesson\'s way on', async () => {
  for (const embed of [false, true]) {
    const { page, context, problems } = await open(browser, `${url}/?${embed ? 'embed=1&' : ''}lesson=results&step=2`, { viewport: { width: 1024, height: 700 } });
    const before = await title(page);
    await page.click('[data-testid="lesson-next"]'); // ▶ Play the step
    await page.waitForSelector('[data-testid="outcome-requeue-after"]', { timeout: 10000 });
    await page.keyboard.press('3');
    await page.waitForSelector('[data-testid="lesson-next"]', { timeout: 10000 });
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'lesson-next', null, { timeout: 3000 });
    // Enter acts on it (the scene plays on, then Next), and the focus stays
    // on the way on until the step changes.
    for (let n = 0; n < 4 && (await title(page)) === before; n++) {
      const label = await page.textContent('[data-testid="lesson-next"]');
      await page.keyboard.press('Enter');
      await page.waitForFunction(([l, t]) => document.querySelector('[data-testid="lesson-next"]')?.textContent !== l
        || document.querySelector('[data-testid="lesson-step-title"]')?.textContent !== t, [label, before], { timeout: 8000 }).catch(() => {});
      if ((await title(page)) === before) {
        assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'lesson-next', `embed=${embed}: after ${label}`);
      }
    }
    assert.notEqual(await title(page), before, `embed=${embed}: Enter went on to the next step`);
    assert.deepEqual(problems.console, [], `embed=${embed}`);
    await context.close();
  }
});
