// Screenshots for a person to look at (not a test): `node tests/e2e/look.mjs
// NAME WIDTHxHEIGHT QUERY [ACTIONS]`, where ACTIONS is JavaScript run with
// `page` in scope before the shot. Files go to target/e2e-screenshots/look/.
import { serve, launch, open, shots } from './harness.mjs';
import path from 'node:path';
import fs from 'node:fs';

const [name, size = '1280x800', query = '', actions = ''] = process.argv.slice(2);
const [width, height] = size.split('x').map(Number);
const { server, url } = await serve();
const browser = await launch();
try {
  const { page, problems } = await open(browser, `${url}/${query}`, { viewport: { width, height } });
  if (actions) await new Function('page', `return (async () => { ${actions} })()`)(page);
  const dir = path.join(shots, 'look');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
  if (problems.console.length) console.log('console errors:', problems.console);
} finally {
  await browser.close();
  server.close();
}
