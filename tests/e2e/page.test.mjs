// The page as a newcomer first sees it: it renders, draws, stays offline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, shot, canvasChecksum as canvasSum } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('renders with no console errors and no request leaving localhost', async () => {
  const { page, problems, context } = await open(browser, url);
  await page.waitForTimeout(500);
  assert.match(await page.textContent('h1'), /Workqueue Playground/);
  // A first visit: nothing happens yet, so no clock counts up an empty stage.
  assert.equal(await page.textContent('[data-testid="clock"]'), '0s', 'no clock running while nothing happens');
  assert.match(await page.textContent('[data-testid="pace"]'), /waiting for your first key/);
  await shot(page, '01-first-load');
  await page.click('[data-testid="add"]');
  await page.waitForTimeout(500);
  assert.notEqual(await page.textContent('[data-testid="clock"]'), '0s', 'virtual time runs once a key is added');
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.external, []);
  await context.close();
});

test('the charts really draw: pixels change as the run goes on', async () => {
  const { page, problems, context } = await open(browser, url);
  await page.selectOption('[data-testid="script"]', 'always-error');
  await page.click('[data-testid="apply"]');
  await page.click('[data-testid="tab-charts"]'); // the charts are one click away
  const before = await canvasSum(page, 'chart-requeues');
  await page.fill('[data-testid="count"]', '300');
  await page.click('[data-testid="add-many"]');
  await page.click('[data-testid="speed"]'); // no-op: the output is not a control
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.waitForTimeout(1500);
  const afterSum = await canvasSum(page, 'chart-requeues');
  assert.notEqual(afterSum, before, 'the requeue chart changed');
  await shot(page, '02-charts-after-storm');
  assert.deepEqual(problems.console, []);
  await context.close();
});

test('dark mode and reduced motion are honoured', async () => {
  const { page, context } = await open(browser, url, { colorScheme: 'dark', reducedMotion: 'reduce' });
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(15, 18, 23)');
  const anim = await page.evaluate(() => { const s = document.createElement('span'); s.className = 'chip'; document.body.append(s); return getComputedStyle(s).animationName; });
  assert.equal(anim, 'none');
  await shot(page, '03-dark');
  await context.close();
});

test('every control has an accessible name', async () => {
  const { page, context } = await open(browser, url);
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, input, select')]
    .filter((el) => {
      const label = el.getAttribute('aria-label') || el.textContent.trim() || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.closest('label');
      return !label;
    })
    .map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, []);
  await context.close();
});

test('on a slow link the page says it is loading, and how far; a module that cannot load is said in words', async () => {
  // About 2 s for the module on a throttled link (the browser's own, so
  // the bytes arrive as a trickle): long enough to be seen.
  const slow = await serve(undefined, { gzip: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 100, downloadThroughput: 300 * 1000, uploadThroughput: 100 * 1000 });
    await page.goto(slow.url, { waitUntil: 'commit' });
    await page.waitForSelector('#page-wait', { state: 'visible', timeout: 5000 });
    assert.match(await page.textContent('#page-wait'), /Loading the playground/);
    await page.waitForFunction(() => document.querySelector('#page-wait progress')?.value > 0.05, null, { timeout: 10000 });
    const early = await page.evaluate(() => document.querySelector('#page-wait progress').value);
    await page.waitForFunction((v) => !document.querySelector('#page-wait') || document.querySelector('#page-wait progress').value > v, early, { timeout: 10000 });
    await shot(page, 'page-loading-slow-link');
    // The app takes its place: the word goes with the mount.
    await page.waitForSelector('[data-stage]', { state: 'visible', timeout: 30000 });
    assert.equal(await page.locator('#page-wait').count(), 0, 'the loading word is gone once the app is there');
    // A fast link never shows it.
    const quick = await context.newPage();
    await quick.addInitScript(() => {
      window.__waitSeen = false;
      new MutationObserver(() => { if (document.querySelector('#page-wait:not([hidden])')) window.__waitSeen = true; })
        .observe(document, { subtree: true, attributes: true, childList: true });
    });
    await quick.goto(url);
    await quick.waitForSelector('[data-stage]');
    assert.equal(await quick.evaluate(() => window.__waitSeen), false, 'no flash of a loading word on a fast link');
  } finally {
    await context.close();
    slow.server.close();
  }
  // The module cannot be had: the page and an embed say so, in words.
  for (const [address, module] of [['/', /workqueue-playground-.*_bg\.wasm/], ['/?embed=1&lesson=herd&step=2', /workqueue-embed_bg\.wasm/]]) {
    const broken = await browser.newContext({ viewport: { width: 412, height: 640 } });
    const page = await broken.newPage();
    await page.route(module, (r) => r.fulfill({ status: 404, body: 'gone' }));
    await page.goto(url + address);
    await page.waitForSelector('#page-wait[role="alert"]', { state: 'visible', timeout: 10000 });
    const said = await page.textContent('#page-wait');
    assert.match(said, /could not start \(the server answered 404 for its module\)\. Check the connection and reload the page\./, `${address}: ${said}`);
    const size = await page.$eval('#page-wait .wait-line', (e) => parseFloat(getComputedStyle(e).fontSize));
    assert.ok(size >= 16, `readable: ${size}px`);
    await shot(page, `page-failed-${address.length > 1 ? 'embed' : 'page'}`);
    await broken.close();
  }
});

// The whole page on phones of playwright-core's own list (the narrowest,
// a common one, the widest portrait): nothing is wider than the screen, so
// the browser never lays the page out wider and the reader never pans.
test('the whole page on phones: nothing wider than the screen, free or in a lesson', async () => {
  const { devices } = await import('playwright-core');
  const phones = Object.entries(devices).filter(([name, d]) => d.isMobile && !/landscape/i.test(name) && d.viewport.width < 600);
  const widths = phones.map(([, d]) => d.viewport.width);
  const pick = [Math.min(...widths), 412, Math.max(...widths)].map((w) => phones.find(([, d]) => d.viewport.width === w) || phones.find(([, d]) => d.viewport.width >= w));
  for (const [name, device] of pick) {
    const context = await browser.newContext({ ...device });
    const page = await context.newPage();
    for (const address of ['/', '/?lesson=results&step=2', '/?lesson=herd&step=3', '/?lesson=crossplane&step=2']) {
      await page.goto(url + address);
      await page.waitForSelector('[data-stage]');
      // A key on the stage, selected: the inspector's facts are the widest.
      if (address === '/') { await page.click('[data-testid="add"]'); await page.waitForTimeout(400); }
      await page.waitForTimeout(500);
      const [inner, scroll, wide] = await page.evaluate((w) => [innerWidth, document.documentElement.scrollWidth,
        [...document.querySelectorAll('body *')].filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.right > w + 0.5 && !el.closest('nav.toolbar'); })
          .slice(0, 3).map((el) => `${el.tagName}.${el.className}`)], device.viewport.width);
      assert.equal(inner, device.viewport.width, `${name} ${address}: the page is laid out ${inner} px wide (${wide.join(', ')})`);
      assert.ok(scroll <= inner, `${name} ${address}: scrolls sideways to ${scroll}`);
    }
    await context.close();
  }
});
