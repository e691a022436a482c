import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync, constants } from 'node:zlib';
import { readPage } from '../pages.js';

const WEB = new URL('../../', import.meta.url);

// Follows the static imports of an entry module.
function moduleGraph(entry) {
  const seen = new Set();
  const visit = (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    const src = readFileSync(new URL(path, WEB), 'utf8');
    for (const m of src.matchAll(/^(?:import|export)[^'"]*from '(\.\/[^']+)'/gm)) {
      visit(new URL(m[1], new URL(path, 'http://x/')).pathname.slice(1));
    }
  };
  visit(entry);
  return [...seen];
}

// The bytes the server sends for a file to a browser that takes gzip: the
// server compresses each file once at the best level, and sends it as it
// is when it is under 256 bytes or gzip saves less than a tenth (see
// crates/fanorona-server/src/routes/assets.rs). Browsers that take brotli
// get fewer bytes still, so this is the budget's worst case.
function sentSize(file) {
  const plain = file.endsWith('.html') ? Buffer.from(readPage(file)) : readFileSync(new URL(file, WEB));
  if (plain.length < 256) return plain.length;
  const gzip = gzipSync(plain, { level: constants.Z_BEST_COMPRESSION }).length;
  return gzip + Math.floor(plain.length / 10) <= plain.length ? gzip : plain.length;
}

function assets(page) {
  const html = readPage(page);
  const refs = [...html.matchAll(/(?:href|src)="\/([^"]+\.(?:css|js|svg))"/g)].map((m) => m[1]);
  const scripts = refs.filter((r) => r.endsWith('.js')).flatMap(moduleGraph);
  return [page, ...new Set([...refs, ...scripts])];
}

test('the game page with all its assets stays under 60 KB compressed', () => {
  const files = assets('game.html');
  assert.ok(files.includes('js/state.js') && files.includes('css/board.css'), files.join());
  const total = files.reduce((n, f) => n + sentSize(f), 0);
  assert.ok(total <= 60 * 1024, `game page is ${total} bytes compressed`);
});

test('the front page with all its assets stays under 60 KB compressed', () => {
  const files = assets('index.html');
  assert.ok(files.includes('js/qr.js'));
  const total = files.reduce((n, f) => n + sentSize(f), 0);
  assert.ok(total <= 60 * 1024, `front page is ${total} bytes compressed`);
});

test('the rules page with all its assets stays under 60 KB compressed', () => {
  const files = assets('rules.html');
  assert.ok(files.includes('js/tryit.js') && files.includes('js/state.js') && files.includes('css/board.css'), files.join());
  const total = files.reduce((n, f) => n + sentSize(f), 0);
  assert.ok(total <= 60 * 1024, `rules page is ${total} bytes compressed`);
});

test('the pages without a board load nothing that draws one', () => {
  for (const page of ['message.html', 'which-rules.html']) {
    const html = readPage(page);
    assert.doesNotMatch(html, /data-position/, `${page} has no board`);
    const entry = html.match(/<script type="module" src="\/([^"]+)"><\/script>/)[1];
    assert.deepEqual(moduleGraph(entry).sort(), ['js/i18n.js', 'js/message.js', 'js/messages-en.js'], page);
  }
});

// Each page names every module its entry imports, directly or not, as a
// modulepreload: the browser then fetches them all at once instead of one
// level of imports after the other. The list must follow the imports.
test('every page preloads exactly the modules its entry imports', () => {
  const pages = ['index.html', 'game.html', 'invite.html', 'rules.html', 'which-rules.html',
    'message.html'];
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
