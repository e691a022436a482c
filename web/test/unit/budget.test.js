import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

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

function assets(page) {
  const html = readFileSync(new URL(page, WEB), 'utf8');
  const refs = [...html.matchAll(/(?:href|src)="\/([^"]+\.(?:css|js|svg))"/g)].map((m) => m[1]);
  const scripts = refs.filter((r) => r.endsWith('.js')).flatMap(moduleGraph);
  return [page, ...new Set([...refs, ...scripts])];
}

test('the game page with all its assets stays under 60 KB compressed', () => {
  const files = assets('game.html');
  assert.ok(files.includes('js/state.js') && files.includes('css/board.css'), files.join());
  const total = files.reduce((n, f) => n + gzipSync(readFileSync(new URL(f, WEB))).length, 0);
  assert.ok(total <= 60 * 1024, `game page is ${total} bytes compressed`);
});

test('the front page with all its assets stays under 60 KB compressed', () => {
  const files = assets('index.html');
  assert.ok(files.includes('js/qr.js'));
  const total = files.reduce((n, f) => n + gzipSync(readFileSync(new URL(f, WEB))).length, 0);
  assert.ok(total <= 60 * 1024, `front page is ${total} bytes compressed`);
});
