// Splits a built page's wasm (`node scripts/split-page.mjs STAGING_DIR SPLITTER`,
// run by scripts/split-wasm.sh after trunk's release build):
//
// 1. the splitter writes a copy of the wasm that records each function the
//    first time it runs;
// 2. headless Chromium opens that copy as a newcomer does: the page loads, one
//    key is added, and its reconcile plays for a few seconds;
// 3. the splitter keeps what ran in `*_bg.wasm` and moves the rest to
//    `*_lazy.wasm`, which index.html preloads and static/split-loader.js links.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { serve, launch, open } from '../tests/e2e/harness.mjs';

const [staging, splitter] = process.argv.slice(2);
const wasmName = fs.readdirSync(staging).filter((f) => f.endsWith('_bg.wasm'));
if (wasmName.length !== 1) throw new Error(`expected one *_bg.wasm in ${staging}, found ${wasmName.length}`);
const wasm = path.join(staging, wasmName[0]);
const lazyName = wasmName[0].replace(/_bg\.wasm$/, '_lazy.wasm');
const html = path.join(staging, 'index.html');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wq-split-'));

// What ran, as function indices, gathered through the `wq_profile.mark` import.
async function recordFirstScreen(pageDir) {
  const { server, url } = await serve(pageDir);
  const browser = await launch();
  try {
    const initScript = () => {
      window.__wqRan = new Set();
      const withMark = (imports) => ({ ...imports, wq_profile: { mark: (f) => window.__wqRan.add(f) } });
      const streaming = WebAssembly.instantiateStreaming;
      const plain = WebAssembly.instantiate;
      WebAssembly.instantiateStreaming = (source, imports) => streaming(source, withMark(imports));
      WebAssembly.instantiate = (source, imports) => plain(source, withMark(imports));
    };
    const { page, problems } = await open(browser, `${url}/`, { initScript });
    await page.click('[data-testid="add"]');
    await page.waitForTimeout(2500);
    const ran = await page.evaluate(() => [...window.__wqRan].sort((a, b) => a - b));
    if (problems.console.length) throw new Error(`the recording page failed: ${problems.console.join('; ')}`);
    return ran;
  } finally {
    await browser.close();
    server.close();
  }
}

try {
  const original = fs.readFileSync(wasm);
  const pageDir = path.join(work, 'page');
  fs.cpSync(staging, pageDir, { recursive: true });
  execFileSync(splitter, ['instrument', wasm, path.join(pageDir, wasmName[0])], { stdio: 'inherit' });
  // The copy's preload names the original's digest: drop it rather than
  // mismatch. So goes `trunk serve`'s live-reload script, not filled in yet.
  const recordingHtml = path.join(pageDir, 'index.html');
  const recordingText = fs.readFileSync(recordingHtml, 'utf8')
    .replace(/<link rel="preload"[^>]*>/g, '')
    .replace(/<script\b[^>]*>(?:(?!<\/script>)[\s\S])*__trunk_address__[\s\S]*?<\/script>/gi, '');
  fs.writeFileSync(recordingHtml, recordingText);
  const ran = await recordFirstScreen(pageDir);
  const profile = path.join(work, 'profile.txt');
  fs.writeFileSync(profile, ran.join('\n') + '\n');
  const primary = path.join(work, 'primary.wasm');
  execFileSync(splitter, ['split', wasm, profile, primary, path.join(staging, lazyName)], { stdio: 'inherit' });
  fs.copyFileSync(primary, wasm);

  // index.html: the primary's new digest, and a preload of the secondary.
  const digest = (bytes) => `sha384-${crypto.createHash('sha384').update(bytes).digest('base64')}`;
  let text = fs.readFileSync(html, 'utf8');
  const oldDigest = digest(original);
  if (!text.includes(oldDigest)) throw new Error(`index.html does not name ${wasmName[0]}'s digest`);
  text = text.replace(oldDigest, digest(fs.readFileSync(wasm)));
  const href = text.match(new RegExp(`href="([^"]*${wasmName[0].replace(/[.]/g, '\\.')})"`));
  if (!href) throw new Error(`index.html does not preload ${wasmName[0]}`);
  const lazyHref = href[1].replace(wasmName[0], lazyName);
  const preload = `<link rel="preload" href="${lazyHref}" as="fetch" type="application/wasm" crossorigin="anonymous" data-wq-lazy>`;
  text = text.replace('</head>', `${preload}</head>`);
  fs.writeFileSync(html, text);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
