// Shared set-up for the end-to-end tests: serve dist/ on a free localhost
// port, launch the system Chromium through playwright-core (it never
// downloads a browser), fail on console errors and on any request that
// would leave localhost.
import http from 'node:http';
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
// WQ_DIST serves a copy of a build (a long walk on one build while the next is made).
export const dist = process.env.WQ_DIST ? path.resolve(process.env.WQ_DIST) : path.join(root, 'dist');
export const shots = path.join(root, 'target', 'e2e-screenshots');

const types = { '.md': 'text/markdown', '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png' };

// With `gzip`, files go out compressed to a client that accepts it, as a
// real host serves them (the load benchmark on a slow link needs that).
// With `prefix` (say '/playground'), dist/ is served under that path only, as
// a project site is, and anything outside it is a 404. With `shape`, each
// response waits `latency` ms and the bytes of all responses share `rate`
// bytes a second, as on a slow link.
export function serve(dir = dist, { gzip = false, prefix = '', shape = null } = {}) {
  const packed = new Map();
  let linkFreeAt = 0;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (prefix && !url.pathname.startsWith(prefix + '/')) { res.writeHead(404).end('not found'); return; }
    let file = path.join(dir, decodeURIComponent(url.pathname.slice(prefix.length)));
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file)) { res.writeHead(404).end('not found'); return; }
    const headers = { 'content-type': types[path.extname(file)] || 'application/octet-stream' };
    if (shape) {
      // The link is one pipe: a response's bytes go after those already sent.
      const zipped = gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '');
      if (zipped && !packed.has(file)) packed.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
      const body = zipped ? packed.get(file) : fs.readFileSync(file);
      const start = Math.max(Date.now() + shape.latency, linkFreeAt);
      linkFreeAt = start + (body.length / shape.rate) * 1000;
      shape.bytes = (shape.bytes || 0) + body.length;
      (shape.served ||= []).push(url.pathname);
      await new Promise((r) => setTimeout(r, linkFreeAt - Date.now()));
      // As a static host answers: cacheable for a while, so a second embed
      // of the same site reuses what the first fetched.
      const cache = { 'cache-control': 'max-age=600', 'last-modified': fs.statSync(file).mtime.toUTCString() };
      res.writeHead(200, { ...headers, ...cache, ...(zipped ? { 'content-encoding': 'gzip' } : {}) }).end(body);
      return;
    }
    if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      if (!packed.has(file)) packed.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(packed.get(file));
      return;
    }
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  // Closing ends the browser's kept-alive connections too, so a test file's
  // process exits as soon as its tests are done.
  const close = server.close.bind(server);
  server.close = (cb) => { const r = close(cb); server.closeAllConnections(); return r; };
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

export function chromiumPath() {
  for (const p of [process.env.WQ_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) {
    if (p && fs.existsSync(p)) return p;
  }
  throw new Error('no Chromium found: run scripts/setup.sh');
}

export async function launch() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

// A page that records console errors, page errors and every non-local request
// (which it also blocks).
export async function open(browser, url, { viewport = { width: 1280, height: 800 }, colorScheme = 'light', reducedMotion = 'no-preference', initScript = null } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion });
  const page = await context.newPage();
  if (initScript) await page.addInitScript(initScript);
  const problems = { console: [], external: [] };
  // Any error or warning on any page is a problem the tests report.
  page.on('console', (m) => { if (['error', 'warning'].includes(m.type())) problems.console.push(m.text()); });
  page.on('pageerror', (e) => problems.console.push(String(e)));
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (['127.0.0.1', 'localhost'].includes(u.hostname) || u.protocol === 'data:' || u.protocol === 'blob:') return route.continue();
    problems.external.push(u.href);
    return route.abort();
  });
  await page.goto(url);
  await page.waitForSelector('[data-testid="clock"]');
  return { page, context, problems };
}

// Opens the page, runs `body` with it, then requires that nothing was
// logged as an error or warning; the browser context is closed either way.
export async function onPage(browser, url, body, options) {
  const opened = await open(browser, url, options);
  try {
    await body(opened);
    if (opened.problems.console.length) throw new Error(`console: ${opened.problems.console.join(' | ')}`);
  } finally {
    await opened.context.close();
  }
}

// A room's screen: the playground in workshop mode at `viewport`, with the
// errors its page throws collected.
export async function workshopPage(browser, url, viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}/?workshop=1`);
  await page.waitForSelector('body.workshop');
  return { context, page, errors };
}

// A checksum of a canvas's pixels: it changes when the chart draws anew.
export const canvasChecksum = (page, id) => page.evaluate((id) => {
  // The picture as the browser encodes it: reading it back pixel by pixel
  // (getImageData) again and again makes the browser warn about the page.
  const url = document.querySelector(`[data-testid="${id}"]`).toDataURL();
  let h = 0;
  for (let i = 0; i < url.length; i += 7) h = (h * 31 + url.charCodeAt(i)) >>> 0;
  return h;
}, id);

export async function shot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

// The virtual clock as nanoseconds, parsed from the Go duration it shows.
export function parseGoDuration(s) {
  const units = { ns: 1, 'µs': 1e3, us: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
  let total = 0;
  for (const [, num, unit] of s.matchAll(/([\d.]+)(ns|µs|us|ms|s|m|h)/g)) total += Number(num) * units[unit];
  return total;
}

// Through the form, as a person would: every key fails, reconciles are
// instant, and `count` distinct keys arrive at once.
export async function failingStorm(page, count) {
  await page.selectOption('[data-testid="script"]', 'always-error');
  await page.fill('#f-reconcile', '0s');
  await page.click('[data-testid="apply"]');
  await page.fill('[data-testid="count"]', String(count));
  await page.click('[data-testid="add-many"]');
}

// The lesson's Next button does what a clicker's press does (ask, reveal,
// play, then move on once the step has been seen): press it until the step
// changes, as a trainer would.
export async function nextStep(page, timeout = 20000) {
  const title = await page.textContent('[data-testid="lesson-step-title"]');
  const t0 = Date.now();
  while (Date.now() - t0 < timeout) {
    await page.click('[data-testid="lesson-next"]');
    await page.waitForTimeout(400);
    if ((await page.textContent('[data-testid="lesson-step-title"]')) !== title) return;
  }
  throw new Error(`the lesson stayed on "${title}"`);
}

// Pixels of content hidden in inner scroll areas (an embed should have none).
export function hiddenInScrollAreas(page) {
  return page.evaluate(() => {
    let px = 0;
    for (const el of document.querySelectorAll('body *')) {
      const o = getComputedStyle(el).overflowY;
      if ((o === 'auto' || o === 'scroll') && el.scrollHeight > el.clientHeight + 1) px += el.scrollHeight - el.clientHeight;
    }
    return px;
  });
}
