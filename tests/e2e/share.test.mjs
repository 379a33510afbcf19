// Lessons, share links, embedding and export, as a trainer and a blog author use them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { serve, launch, open, shot, nextStep } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('walk a whole lesson: predict, reveal, next, back', async () => {
  const { page, problems, context } = await open(browser, `${url}/?lesson=backoff`);
  assert.match(await page.textContent('[data-testid="lesson"]'), /Per-item backoff/);
  assert.equal(await page.getAttribute('[data-testid="lesson-next"]', 'data-press'), 'asked', 'the prediction comes first');
  await page.fill('[data-testid="guess"]', '7');
  await page.click('[data-testid="reveal"]');
  assert.equal((await page.textContent('[data-testid="answer-value"]')).trim(), '7 requeues');
  assert.match(await page.textContent('[data-testid="answer"]'), /you got it/);
  await nextStep(page);
  assert.match(await page.textContent('[data-testid="lesson-step-title"]'), /long tail/);
  // This step waits for the 19th failure (21m51s), and asks first: the clock
  // holds until the room has predicted (so it says what the scene will
  // play to, not that it waits already).
  assert.match(await page.textContent('[data-testid="lesson-wait"]'), /The scene plays until t=21m51s/);
  // (The step's set-up may replay over a few frames first: read the clock
  // once it has settled.)
  let entered = await page.textContent('[data-testid="clock"]');
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(150);
    const now = await page.textContent('[data-testid="clock"]');
    if (now === entered) break;
    entered = now;
  }
  await page.click('[data-testid="play"]');
  await page.waitForTimeout(300);
  assert.equal(await page.textContent('[data-testid="clock"]'), entered, 'no scene moves before the prediction');
  // The same value in another unit is right: 1000s = 16m40s.
  await page.fill('[data-testid="guess"]', '1000s');
  await page.click('[data-testid="reveal"]');
  assert.match(await page.textContent('[data-testid="answer-value"]'), /16m40s/);
  assert.match(await page.textContent('[data-testid="answer"]'), /you got it/);
  await page.click('[data-testid="play"]');
  await page.keyboard.press('+'); await page.keyboard.press('+'); await page.keyboard.press('+');
  // (The step plays to the 19th failure at 21m51s; the long waits go by fast.)
  await page.waitForSelector('[data-testid="lesson-wait"]', { state: 'detached', timeout: 60000 });
  await shot(page, '30-lesson');
  await page.click('[data-testid="lesson-back"]');
  assert.match(await page.textContent('[data-testid="lesson-step-title"]'), /Doubling delays/);
  assert.equal(await page.textContent('[data-testid="clock"]'), '0s', 'back replays the step from its start');
  // Back keeps the prediction made there, and its answer has not moved.
  assert.equal((await page.textContent('[data-testid="answer-value"]')).trim(), '7 requeues');
  assert.match(await page.textContent('[data-testid="answer"]'), /you got it/);
  // Trainer keys: n does what Next does (play the scene, then, once it has
  // been seen, move on).
  for (let i = 0; i < 20 && !/long tail/.test(await page.textContent('[data-testid="lesson-step-title"]')); i++) {
    await page.locator('body').press('n');
    await page.waitForTimeout(400);
  }
  assert.match(await page.textContent('[data-testid="lesson-step-title"]'), /long tail/);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('a share link reopens exactly what was shared', async () => {
  const { page, context } = await open(browser, url);
  await page.click('[data-testid="play"]');
  await page.fill('[data-testid="key"]', 'ns/shared');
  await page.click('[data-testid="add"]');
  await page.click('[data-testid="step"]');
  await page.click('[data-testid="outcome-error"]');
  await page.click('[data-testid="step"]');
  const clock = await page.textContent('[data-testid="clock"]');
  const log = await page.textContent('[data-testid="log"]');
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  assert.match(link, /#v2\./);
  await context.close();
  const again = await open(browser, link.replace(/^http:\/\/[^/]+/, url));
  assert.equal(await again.page.textContent('[data-testid="clock"]'), clock);
  assert.equal(await again.page.textContent('[data-testid="log"]'), log);
  assert.match(await again.page.textContent('[data-testid="inspector"]'), /ns\/shared/);
  await again.context.close();
});

test('a garbled, truncated or future link says so and opens a working default', async () => {
  // A well-formed link whose state has a misspelled field: named by its path.
  const packed = (json) => `#v2.${deflateRawSync(Buffer.from(json)).toString('base64url')}`;
  // (The misspelling comes first: a link's first mistake is the one named.)
  const misspelled = packed('{"selcted": "a", "scenario": {"version": 2}}');
  for (const [hash, why] of [
    ['#v1.%%%garbage', /the base64: the state is not URL-safe base64/],
    ['#v1.eyJzY2VuYXJpbyI6', /not JSON: EOF/],
    ['#v2.AAAA', /the compressed data: damaged or cut short/],
    ['#v7.abc', /format v7 is newer than this playground/],
    ['#hello', /the prefix: not a playground format/],
    [misspelled, /the field selcted: unknown field/],
    // A refused lesson parameter does not hide the link's refusal.
    ['?lesson=no-such-lesson#hello', /the prefix: .*There is no lesson "no-such-lesson"/],
  ]) {
    const { page, problems, context } = await open(browser, `${url}/${hash}`);
    assert.doesNotMatch(await page.textContent('[data-testid="notice"]'), /should start with/);
    assert.match(await page.textContent('[data-testid="notice"]'), why);
    await page.fill('[data-testid="key"]', 'still/works');
    await page.click('[data-testid="add"]');
    assert.match(await page.textContent('[data-testid="workers"]'), /still\/works/);
    assert.deepEqual(problems.console, []);
    await context.close();
  }
});

test('the demo blog page embeds three playgrounds that fit their frames, the last one far down the post', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${url}/embed-demo.html`);
  const frames = page.locator('iframe');
  assert.equal(await frames.count(), 3);
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height), null, { timeout: 10000 });
  const heights = await frames.evaluateAll((fs) => fs.map((f) => parseInt(f.style.height, 10)));
  assert.ok(heights.every((h) => h > 400), `heights ${heights}`);
  const first = page.frameLocator('#backoff');
  assert.match(await first.locator('[data-testid="lesson"]').textContent(), /Per-item backoff/);
  assert.equal(await first.locator('.toolbar').count(), 0, 'no side panels or toolbar when embedded');
  assert.equal(await first.locator('[data-testid="clock"]').textContent(), '0s', 'no autoplay unless asked');
  // An embed below the screen shows its first paint and waits for the
  // reader to reach it before it starts.
  const second = page.frameLocator('#herd');
  assert.match(await second.locator('#first-paint h3').textContent(), /One bucket/);
  await page.locator('#herd').scrollIntoViewIfNeeded();
  assert.match(await second.locator('[data-testid="lesson-step-title"]').textContent(), /One bucket/);
  await shot(page, '31-embed-demo');
  // The last one loads once the reader nears it.
  await page.locator('#max-of').scrollIntoViewIfNeeded();
  await page.frameLocator('#max-of').locator('[data-testid="lesson-step-title"]').waitFor({ timeout: 15000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Embed dialog produces a snippet whose frame shows the chosen step', async () => {
  const { page, context } = await open(browser, `${url}/?lesson=max-of`);
  await page.waitForSelector('[data-testid="lesson-step-title"]');
  await page.click('[data-testid="embed"]');
  const snippet = await page.inputValue('[data-testid="embed-snippet"]');
  // Written as HTML: the address's & as &amp;, the frame named by its lesson and step.
  assert.match(snippet, /^<iframe src="[^"]+\?embed=1&amp;lesson=max-of&amp;step=1" title="5\. Max-of: who wins\?, step 1: The larger delay wins \(Workqueue Playground\)"/);
  await shot(page, '32-embed-dialog');
  await context.close();
});

test('the Go code uses the real constructors for every preset', async () => {
  const { page, context } = await open(browser, url);
  const expected = {
    default: 'workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()',
    'per-item': 'workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, 1000*time.Second)',
    bucket: 'rate.NewLimiter(rate.Limit(10), 100)',
    'fast-slow': 'workqueue.NewTypedItemFastSlowRateLimiter[reconcile.Request](5*time.Millisecond, 10*time.Second, 3)',
    'max-wait': 'workqueue.NewTypedWithMaxWaitRateLimiter(',
    crossplane: 'const maxReconcileRate = 10\n',
  };
  for (const [preset, code] of Object.entries(expected)) {
    await page.selectOption('[data-testid="preset"]', preset);
    if (!(await page.isDisabled('[data-testid="apply"]'))) await page.click('[data-testid="apply"]');
    await page.click('[data-testid="go-code"]');
    const text = await page.textContent('[data-testid="go-snippet"]');
    assert.ok(text.includes(code), `${preset}: ${text}`);
    await page.click('.modal [aria-label="Close"]');
  }
  await context.close();
});

test('a run downloads, and a bad upload is refused with a message', async () => {
  const { page, context } = await open(browser, url);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download"]')]);
  const fs = await import('node:fs');
  const text = fs.readFileSync(await download.path(), 'utf8');
  assert.equal(download.suggestedFilename(), 'workqueue-run.json');
  assert.match(text, /"scenario": \{/);
  assert.match(text, /"version": 2/);
  assert.match(text, /"run_to": 0/);
  await page.setInputFiles('[data-testid="upload"]', { name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(text.replace('"workers": 1', '"workers": 3')) });
  await page.waitForSelector('text=Scenario loaded.');
  assert.match(await page.textContent('[data-testid="workers"]'), /of 3 busy/);
  await page.setInputFiles('[data-testid="upload"]', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "limiter": {"type": "bucket", "qps": 10, "burst": 0}}') });
  await page.waitForSelector('text=bad.json is not a usable scenario');
  assert.match(await page.textContent('[data-testid="notice"]'), /burst/);
  assert.match(await page.textContent('[data-testid="workers"]'), /of 3 busy/, 'the run was kept');
  await context.close();
});

test('workshop mode: large type, chrome hidden', async () => {
  const { page, context } = await open(browser, `${url}/?workshop=1&lesson=sets`);
  const size = await page.evaluate(() => getComputedStyle(document.body).fontSize);
  assert.equal(size, '19px');
  for (const tab of ['log', 'metrics', 'settings']) {
    assert.equal(await page.isVisible(`[data-testid="tab-${tab}"]`), false, `the ${tab} tab is hidden`);
  }
  assert.ok(await page.isVisible('[data-testid="tab-key"]'), "the key's explanation stays one click away");
  await shot(page, '33-workshop');
  await context.close();
});

test('the articles figure, live: 10,000 failing keys under three limiters', async () => {
  const { page, context } = await open(browser, url);
  await page.click('[data-testid="compare-toggle"]');
  const totals = await page.textContent('[data-testid="compare-totals"]');
  const [perItem, bucket, maxOf] = [...totals.matchAll(/([\d,]+)/g)].map((m) => Number(m[1].replace(/,/g, '')));
  assert.ok(perItem >= 70000 && perItem <= 80000, totals);
  assert.ok(bucket >= 100 && bucket <= 111, `bucket: 100 at once, then 10/s: ${totals}`);
  assert.ok(maxOf >= 100 && maxOf <= 111, totals);
  await shot(page, '34-compare');
  // One scale for all four (the default), or each its own: the bucket's plot
  // is redrawn on its own, much smaller, scale.
  const pixels = () => page.$$eval('[data-testid="compare"] canvas', (cs) => cs.map((c) => {
    const d = c.toDataURL();
    let h = 0; for (let i = 0; i < d.length; i += 7) h = (h * 31 + d.charCodeAt(i)) >>> 0; return h;
  }));
  assert.ok(await page.isChecked('[data-testid="compare-shared-scale"]'), 'one scale by default');
  const shared = await pixels();
  await page.click('[data-testid="compare-shared-scale"]');
  await page.waitForTimeout(300);
  const own = await pixels();
  assert.notEqual(own[1], shared[1], 'the bucket-only plot changes scale');
  await shot(page, '34-compare-own-scales');
  await context.close();
});

test('the requeue chart downloads as a PNG', async () => {
  const { page, context } = await open(browser, url);
  await page.click('[data-testid="tab-charts"]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="save-png"]')]);
  const fs = await import('node:fs');
  const bytes = fs.readFileSync(await download.path());
  assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG file');
  assert.equal(download.suggestedFilename(), 'requeues-per-second.png');
  await context.close();
});
