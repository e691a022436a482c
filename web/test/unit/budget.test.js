import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync, constants } from 'node:zlib';
import { readPage, moduleGraph, localize } from '../pages.js';
import { CATALOGS } from '../catalogs.js';

const WEB = new URL('../../', import.meta.url);

// The bytes the server sends for a file to a browser that takes gzip: the
// server compresses each text file once at the best level, and sends it as
// it is when it is under 256 bytes or gzip saves less than a tenth (see
// crates/fanorona-server/src/routes/assets.rs); fonts and pictures other
// than SVG go as they are. Browsers that take brotli get fewer bytes
// still, so this is the budget's worst case.
const TEXT = /\.(?:html|css|js|svg|json|txt)$/;

function sentSize(file, lang = 'en') {
  const plain = file.endsWith('.html')
    ? Buffer.from(localize(readPage(file), lang, CATALOGS[lang]))
    : readFileSync(new URL(file, WEB));
  if (plain.length < 256 || !TEXT.test(file)) return plain.length;
  const gzip = gzipSync(plain, { level: constants.Z_BEST_COMPRESSION }).length;
  return gzip + Math.floor(plain.length / 10) <= plain.length ? gzip : plain.length;
}

/**
 * The files a style sheet loads (fonts, pictures), from its url()s, as
 * paths under web/: a font the site's CSS names counts in a page's budget.
 * @param {string} css the style sheet's text
 * @param {string} path where it is, under web/ (for relative urls)
 * @returns {string[]}
 */
export function cssRefs(css, path) {
  const base = new URL(path, 'http://x/');
  return [...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g)]
    .map((m) => m[2])
    .filter((ref) => !/^(?:data:|[a-z]+:\/\/|#)/.test(ref))
    .map((ref) => new URL(ref, base).pathname.slice(1));
}

// A page and everything it loads: its style sheets, scripts and icons
// (and any font or picture it preloads), the modules its scripts import,
// and what its style sheets load.
function assets(page) {
  const html = readPage(page);
  const refs = [...html.matchAll(/(?:href|src)="\/([^"?#]+\.(?!html")[a-z0-9]+)"/g)].map((m) => m[1]);
  const scripts = refs.filter((r) => r.endsWith('.js')).flatMap(moduleGraph);
  const styles = refs.filter((r) => r.endsWith('.css'))
    .flatMap((r) => cssRefs(readFileSync(new URL(r, WEB), 'utf8'), r));
  return [page, ...new Set([...refs, ...scripts, ...styles])];
}

test('what a style sheet loads is found, so a font cannot escape the budget', () => {
  const css = `/* url(/not/this.woff2) */
    @font-face { font-family: X; src: url("/fonts/x.woff2") format("woff2"); font-display: swap; }
    .a { background: url(../img/b.png) no-repeat, url('c.svg'); }
    .b { mask: url(data:image/svg+xml;base64,AAAA); fill: url(#grad); }`;
  assert.deepEqual(cssRefs(css, 'css/site.css'), ['fonts/x.woff2', 'img/b.png', 'css/c.svg']);
  // What the pages load, style sheets' files included, exists under web/.
  for (const page of ['index.html', 'game.html']) {
    for (const file of assets(page)) assert.ok(existsSync(new URL(file, WEB)), `${page} loads ${file}`);
  }
});

test('the game page with all its assets stays under 60 KB compressed', () => {
  const files = assets('game.html');
  assert.ok(files.includes('js/state-core.js') && files.includes('css/board.css'), files.join());
  for (const lang of Object.keys(CATALOGS)) {
    const total = files.reduce((n, f) => n + sentSize(f, lang), 0);
    assert.ok(total <= 60 * 1024, `game page in ${lang} is ${total} bytes compressed`);
  }
});

test('the front page with all its assets stays under 60 KB compressed', () => {
  const files = assets('index.html');
  assert.ok(files.includes('js/invitation.js'));
  for (const lang of Object.keys(CATALOGS)) {
    const total = files.reduce((n, f) => n + sentSize(f, lang), 0);
    assert.ok(total <= 60 * 1024, `front page in ${lang} is ${total} bytes compressed`);
  }
});

test('the rules page with all its assets stays under 60 KB compressed', () => {
  const files = assets('rules.html');
  assert.ok(files.includes('js/tryit.js') && files.includes('js/state-core.js') && files.includes('css/board.css'), files.join());
  for (const lang of Object.keys(CATALOGS)) {
    const total = files.reduce((n, f) => n + sentSize(f, lang), 0);
    assert.ok(total <= 60 * 1024, `rules page in ${lang} is ${total} bytes compressed`);
  }
});

test('the replay page with all its assets stays under 40 KB compressed', () => {
  const files = assets('replay.html');
  assert.ok(files.includes('js/replay.js') && files.includes('js/render.js') && files.includes('css/replay.css'), files.join());
  for (const lang of Object.keys(CATALOGS)) {
    const total = files.reduce((n, f) => n + sentSize(f, lang), 0);
    assert.ok(total <= 40 * 1024, `replay page in ${lang} is ${total} bytes compressed`);
  }
});

// The engine itself (web/engine/, 144 KB, 55 KB compressed) is loaded by
// its worker, and by the page for its rules, once the page is up, so the
// page's first paint does not wait for it; the board played on is the
// game page's, so the page around it keeps the game page's budget.
test('the analysis page with all its assets stays under 60 KB compressed, the engine apart', () => {
  const files = assets('analysis.html');
  assert.ok(files.includes('js/analysis.js') && files.includes('js/engine.js') && files.includes('css/analysis.css'), files.join());
  assert.ok(!files.some((f) => f.startsWith('engine/') || f === 'js/engine-worker.js'), files.join());
  for (const lang of Object.keys(CATALOGS)) {
    const total = files.reduce((n, f) => n + sentSize(f, lang), 0);
    assert.ok(total <= 60 * 1024, `analysis page in ${lang} is ${total} bytes compressed`);
  }
});

// The puzzles page plays on the game page's board too; its puzzles file
// and the engine's file come once the page is up.
test('the puzzles page with all its assets stays under 60 KB compressed, the puzzles and the engine apart', () => {
  const files = assets('puzzles.html');
  assert.ok(files.includes('js/puzzles.js') && files.includes('js/playboard.js') && files.includes('css/puzzles.css'), files.join());
  assert.ok(!files.some((f) => f.startsWith('engine/') || f.startsWith('puzzles/')), files.join());
  for (const lang of Object.keys(CATALOGS)) {
    const total = files.reduce((n, f) => n + sentSize(f, lang), 0);
    assert.ok(total <= 60 * 1024, `puzzles page in ${lang} is ${total} bytes compressed`);
  }
});

// The review scores the game with the engine's worker once the page is up.
test('the review page with all its assets stays under 60 KB compressed, the engine apart', () => {
  const files = assets('review.html');
  assert.ok(files.includes('js/review.js') && files.includes('js/review-core.js') && files.includes('css/review.css'), files.join());
  assert.ok(!files.some((f) => f.startsWith('engine/') || f === 'js/engine-worker.js'), files.join());
  for (const lang of Object.keys(CATALOGS)) {
    const total = files.reduce((n, f) => n + sentSize(f, lang), 0);
    assert.ok(total <= 60 * 1024, `review page in ${lang} is ${total} bytes compressed`);
  }
});

// The scripts' shared JSDoc types live in js/types.js for readers and
// editors; a page that imported it would pay for comments alone.
test('no page loads the JSDoc types', () => {
  const pages = ['index.html', 'game.html', 'invite.html', 'rules.html', 'replay.html', 'analysis.html', 'puzzles.html', 'review.html'];
  for (const page of pages) assert.ok(!assets(page).includes('js/types.js'), page);
  const code = readFileSync(new URL('js/types.js', WEB), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\/\/.*$/gm, '').trim();
  assert.equal(code, 'export {};');
});

test('the pages without a board load no script: the server wrote them in their language', () => {
  for (const page of ['message.html', 'which-rules.html']) {
    const html = readPage(page);
    assert.doesNotMatch(html, /data-position/, `${page} has no board`);
    assert.doesNotMatch(html, /<script/, page);
  }
});

// Each page names every module its entry imports, directly or not, as a
// modulepreload: the browser then fetches them all at once instead of one
// level of imports after the other. The list must follow the imports.
test('every page preloads exactly the modules its entry imports', () => {
  const pages = ['index.html', 'game.html', 'invite.html', 'rules.html', 'analysis.html', 'puzzles.html', 'review.html'];
  for (const page of pages) {
    const html = readPage(page);
    const entry = html.match(/<script type="module" src="\/([^"]+)"><\/script>/);
    assert.ok(entry, `${page} has a module script`);
    const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\/([^"]+)">/g)].map((m) => m[1]);
    const imported = moduleGraph(entry[1]).slice(1);
    assert.deepEqual([...preloaded].sort(), [...imported].sort(), `${page} preloads`);
    assert.equal(new Set(preloaded).size, preloaded.length, `${page} preloads each module once`);
  }
});
