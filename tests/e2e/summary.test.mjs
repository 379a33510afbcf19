// The numbers a controller author asks of a run, on the page: the same
// figures `wqsim --summary` prints for the same file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { serve, launch, open, shot, root } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

for (const name of ['fail-three-times.json', 'shared-bucket.json']) {
  test(`the summary of ${name} is the CLI's, figure by figure`, async () => {
    const file = path.join(root, 'scenarios', name);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wq-summary-')), 'summary.json');
    execFileSync('cargo', ['run', '-q', '-p', 'wqsim', '--', file, '--summary-json', out], { cwd: root });
    const cli = JSON.parse(fs.readFileSync(out, 'utf8'));
    const { page, context, problems } = await open(browser, url);
    await page.setInputFiles('[data-testid="upload"]', file);
    await page.waitForSelector('text=Scenario loaded.');
    // To the scenario's end, where the CLI stops: play past it, then seek
    // back to it on the timeline.
    await page.$eval('input[aria-label="Speed"]', (el) => { el.value = '3'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    await page.click('[data-testid="play"]');
    await page.waitForFunction((at) => Number(document.querySelector('input[aria-label="Timeline: drag to rewind"]').max) >= at, cli.at, { timeout: 30000 });
    if ((await page.getAttribute('[data-testid="play"]', 'aria-label')) === 'Pause') await page.click('[data-testid="play"]');
    await page.$eval('input[aria-label="Timeline: drag to rewind"]', (el, at) => { el.value = String(at); el.dispatchEvent(new Event('input', { bubbles: true })); }, cli.at);
    await page.click('[data-testid="tab-metrics"]');
    const end = cli.at % 60e9 === 0 ? `${cli.at / 60e9}m0s` : `${cli.at / 1e9}s`;
    await page.waitForFunction((end) => document.querySelector('[data-testid="summary"] h2')?.textContent === `The run at ${end}`, end, { timeout: 30000 });
    const cell = (id) => page.textContent(`[data-summary="${id}"]`);
    assert.equal(await cell('converged'), `${cli.converged_keys.toLocaleString('en-US')} of ${cli.keys.toLocaleString('en-US')}`);
    assert.equal(await cell('deepest-queue'), cli.deepest_queue.toLocaleString('en-US'));
    assert.equal(await cell('reconciles-per-second'), cli.reconciles_per_second.toFixed(2));
    await shot(page, `summary-${name}`);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
}
