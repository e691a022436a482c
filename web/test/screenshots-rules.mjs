// Takes the rules page's pictures for docs/screenshots/: at a desktop, the
// board to try a capture chain on, a step in the same direction refused
// and explained; on a phone, the after picture of approach or withdrawal
// and the board to try it on, with its two lines to choose from. Light
// theme. With pngquant installed (Debian package `pngquant`)
// the files are made about three times smaller.
//
//   cargo build -p fanorona-server && node web/test/screenshots-rules.mjs [DIR]

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser } from './browser/harness.js';

const DIR = process.argv[2] || fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

// Each picture: the page's size, then what to do before it is taken.
const SHOTS = [
  ['rules-desktop', { viewport: { width: 1280, height: 800 } }, async (page) => {
    for (const sq of ['d3', 'e3', 'f3']) await tap(page, 'chain', sq);
    await scrollTo(page, '#try-chain', -200);
  }],
  ['rules-phone', { viewport: { width: 390, height: 844 }, hasTouch: true }, async (page) => {
    for (const sq of ['d3', 'e3']) await tap(page, 'both', sq);
    await scrollTo(page, '#try-both', -330);
  }],
];

async function scrollTo(page, selector, offset) {
  await page.evaluate(([sel, dy]) => {
    window.scrollTo(0, document.querySelector(sel).getBoundingClientRect().top + window.scrollY + dy);
  }, [selector, offset]);
}

async function tap(page, id, sq) {
  await page.click(`#try-${id} [data-sq="${sq}"] .hit`);
  await page.waitForFunction((sel) => !document.querySelector(sel).hasAttribute('aria-busy'), `#try-${id}`);
}

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [name, options, prepare] of SHOTS) {
    const context = await browser.newContext({ ...options, colorScheme: 'light', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.url}/rules`);
    await page.waitForFunction(() => [...document.querySelectorAll('.try-says')].every((p) => p.textContent));
    await prepare(page);
    await page.mouse.move(0, 0);
    const file = join(DIR, `${name}.png`);
    await page.screenshot({ path: file });
    spawnSync('pngquant', ['--quality', '80-95', '--speed', '1', '--force', '--ext', '.png', file]);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
