import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { translator, chooseLang, CATALOGS } from '../../js/i18n.js';
import { readPage } from '../pages.js';

const WEB = new URL('../../', import.meta.url);
const t = translator('en');

test('messages fill their placeholders and pick plural forms', () => {
  assert.equal(t('point.empty', { square: 'e3' }), 'e3, empty');
  assert.equal(t('game.quiet', { count: 1 }), '1 turn without a capture');
  assert.equal(t('game.quiet', { count: 41 }), '41 turns without a capture');
  assert.equal(t('say.played', { color: 'Black' }), 'Black played {move}.', 'missing params stay visible');
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('the language follows the browser when a catalog exists', () => {
  assert.equal(chooseLang(['en-GB', 'fr']), 'en');
  assert.equal(chooseLang(['xx']), 'en');
  assert.equal(chooseLang([]), 'en');
});

function decode(s) {
  return s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

const pages = readdirSync(WEB).filter((f) => f.endsWith('.html'));

test('every page marks its text with catalog keys, and the text matches the catalog', () => {
  assert.ok(pages.length >= 4);
  let checked = 0;
  for (const page of pages) {
    const html = readPage(page);
    for (const m of html.matchAll(/<(\w+)[^>]*\sdata-i18n="([^"]+)"[^>]*>([^<]*)</g)) {
      const [, , key, text] = m;
      // A key the server fills in ({{name}}): crates/fanorona-server
      // checks those (routes::template::tests).
      if (key.startsWith('{{')) continue;
      assert.ok(key in CATALOGS.en, `${page}: unknown key ${key}`);
      assert.equal(decode(text).replace(/\s+/g, ' ').trim(), t(key), `${page}: ${key}`);
      checked++;
    }
    for (const m of html.matchAll(/data-i18n-([a-z-]+)="([^"]+)"/g)) {
      assert.ok(m[2] in CATALOGS.en, `${page}: unknown key ${m[2]}`);
      const attr = new RegExp(`\\s${m[1]}="([^"]*)"[^>]*data-i18n-${m[1]}="${m[2].replace(/\./g, '\\.')}"`);
      const found = attr.exec(html);
      if (found) assert.equal(decode(found[1]), t(m[2]), `${page}: ${m[1]} of ${m[2]}`);
    }
  }
  assert.ok(checked > 80, `only ${checked} texts checked`);
});

test('every key the scripts ask for is in the catalog', () => {
  const dir = new URL('js/', WEB);
  const missing = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const src = readFileSync(new URL(file, dir), 'utf8');
    for (const m of src.matchAll(/\bt\('([a-zA-Z]+\.[a-zA-Z.]+)'/g)) {
      if (!(m[1] in CATALOGS.en)) missing.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('every end reason and server error code has a message', () => {
  for (const r of ['no_stones', 'no_legal_step', 'fifty_turns', 'resignation', 'agreement', 'abandonment']) {
    assert.ok(`reason.${r}` in CATALOGS.en, r);
  }
  // Every code of the error table in docs/API.md.
  const api = readFileSync(new URL('../docs/API.md', WEB), 'utf8');
  const codes = [...api.matchAll(/^\| `([a-z_]+)` \| \d{3} \|/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 30, `only ${codes.length} codes found in docs/API.md`);
  const missing = codes.filter((c) => !(`error.${c}` in CATALOGS.en) && !['custom_start_disabled', 'bad_position'].includes(c));
  assert.deepEqual(missing, []);
});

test('pages have no inline scripts, styles or event handlers', () => {
  for (const page of pages) {
    const html = readPage(page);
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, `${page}: inline script`);
    assert.doesNotMatch(html, /<style[\s>]/, `${page}: style element`);
    assert.doesNotMatch(html, /\sstyle="/, `${page}: style attribute`);
    assert.doesNotMatch(html, /\son[a-z]+="/, `${page}: event handler attribute`);
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, `${page}: third-party resource`);
  }
});
