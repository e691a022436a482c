// Development helper: screenshots of the pages at phone and desktop sizes
// into artifacts/ (git-ignored). Run: node web/test/shoot.js [path...]
import { chromium } from 'playwright-core';
import { startStaticServer } from './browser/static-server.js';

const paths = process.argv.slice(2);
const server = await startStaticServer();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
for (const [w, h] of [[360, 740], [1280, 800]]) {
  for (const scheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: w, height: h }, colorScheme: scheme });
    page.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
    page.on('pageerror', (e) => console.log('page error:', e.message));
    for (const p of paths) {
      await page.goto(server.url + p);
      await page.waitForTimeout(300);
      const name = p.replace(/[^a-z0-9]+/gi, '_').slice(0, 40) || 'home';
      await page.screenshot({ path: `artifacts/${name}-${w}-${scheme}.png`, fullPage: true });
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      if (sw > w) console.log(`horizontal scroll on ${p} at ${w}: ${sw}`);
    }
    await page.close();
  }
}
await browser.close();
await server.close();
