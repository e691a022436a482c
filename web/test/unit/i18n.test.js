import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { translator, withLang } from '../../js/i18n.js';
import { CATALOGS, LANGS, translatorFor } from '../catalogs.js';
import { readPage, moduleGraph, pageKeys, asksFor } from '../pages.js';

const WEB = new URL('../../', import.meta.url);
const ROOT = new URL('../', WEB);
const en = CATALOGS.en;
const t = translatorFor('en');

test('messages fill their placeholders and pick plural forms', () => {
  assert.equal(t('point.empty', { square: 'e3' }), 'e3, empty');
  assert.equal(t('game.quiet', { count: 1 }), '1 turn without a capture');
  assert.equal(t('game.quiet', { count: 41 }), '41 turns without a capture');
  assert.equal(t('say.played', { color: 'Black' }), 'Black played {move}.', 'missing params stay visible');
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('plural forms follow each language’s rules', () => {
  const messages = { n: { one: '{count} vato', other: '{count} vato maro' } };
  const fr = translator('fr', { n: { one: '{count} pierre', other: '{count} pierres' } });
  // French and Malagasy take the singular for 0 too; English does not.
  assert.equal(fr('n', { count: 0 }), '0 pierre');
  assert.equal(fr('n', { count: 1 }), '1 pierre');
  assert.equal(fr('n', { count: 2 }), '2 pierres');
  assert.equal(translator('mg', messages)('n', { count: 0 }), '0 vato');
  assert.equal(translator('en', { n: { one: '{count} stone', other: '{count} stones' } })('n', { count: 0 }), '0 stones');
  // Numbers are written the language's way.
  assert.equal(fr('n', { count: 1234 }), `${new Intl.NumberFormat('fr').format(1234)} pierres`);
});

test('a link keeps its address and fragment in another language', () => {
  assert.equal(withLang('https://x.example/g/abc?invite=T#b', 'mg'), 'https://x.example/g/abc?invite=T&lang=mg#b');
  assert.equal(withLang('https://x.example/?lang=fr', 'en'), 'https://x.example/?lang=en');
});

/** The {placeholders} of a message, in every form, sorted. */
function placeholders(msg) {
  const forms = typeof msg === 'object' ? Object.values(msg) : [msg];
  return forms.map((form) => [...form.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(','));
}

test('every catalog has exactly the keys of the English one, with the same placeholders', () => {
  assert.deepEqual([...LANGS].sort(), Object.keys(CATALOGS).sort());
  for (const lang of LANGS) {
    const catalog = CATALOGS[lang];
    const missing = Object.keys(en).filter((k) => !(k in catalog));
    const extra = Object.keys(catalog).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks keys`);
    assert.deepEqual(extra, [], `${lang} has keys English has not`);
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, msg] of Object.entries(catalog)) {
      assert.equal(typeof msg === 'object', typeof en[key] === 'object', `${lang} ${key}: plural in one language only`);
      const want = new Set(placeholders(en[key]));
      for (const got of placeholders(msg)) {
        assert.ok(want.has(got), `${lang} ${key}: placeholders {${got}} where English has {${[...want].join('} or {')}}`);
      }
      if (typeof msg === 'object') {
        // Every category the language has, and no other.
        assert.deepEqual(Object.keys(msg).sort(), [...categories].sort(), `${lang} ${key}: plural forms`);
      }
      for (const form of typeof msg === 'object' ? Object.values(msg) : [msg]) {
        assert.equal(typeof form, 'string', `${lang} ${key}`);
        assert.ok(form.trim().length > 0, `${lang} ${key} is empty`);
        assert.doesNotMatch(form, /[<>]/, `${lang} ${key}: markup in a message`);
      }
    }
  }
});

const pages = readdirSync(WEB).filter((f) => f.endsWith('.html'));

/** The sources that may use a key: pages, partials, scripts, the server. */
function sources() {
  const files = [];
  for (const f of pages) files.push(readPage(f));
  for (const f of readdirSync(new URL('js/', WEB))) files.push(readFileSync(new URL(`js/${f}`, WEB), 'utf8'));
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const url = new URL(entry.name + (entry.isDirectory() ? '/' : ''), dir);
      if (entry.isDirectory()) walk(url);
      else if (entry.name.endsWith('.rs')) files.push(readFileSync(url, 'utf8'));
    }
  };
  walk(new URL('crates/fanorona-server/src/', ROOT));
  return files;
}

test('every key is used by a page, a script or the server', () => {
  const text = sources().join('\n');
  // Keys made from a prefix and a value: t(`level.${n}`), format!("reason.{}", …).
  const prefixes = [
    ...[...text.matchAll(/`([a-z][\w.]*\.)\$\{/g)].map((m) => m[1]),
    ...[...text.matchAll(/format!\("([a-z][\w.]*\.)\{/g)].map((m) => m[1]),
  ];
  assert.ok(prefixes.length > 3, `only ${prefixes.length} made keys found`);
  const unused = Object.keys(en).filter((key) => {
    const quoted = [`'${key}'`, `"${key}"`].some((q) => text.includes(q));
    return !quoted && !prefixes.some((p) => key.startsWith(p));
  });
  assert.deepEqual(unused, []);
});

function decode(s) {
  return s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

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
      assert.ok(key in en, `${page}: unknown key ${key}`);
      assert.equal(decode(text).replace(/\s+/g, ' ').trim(), t(key), `${page}: ${key}`);
      checked++;
    }
    for (const m of html.matchAll(/data-i18n-([a-z-]+)="([^"]+)"/g)) {
      assert.ok(m[2] in en, `${page}: unknown key ${m[2]}`);
      const attr = new RegExp(`\\s${m[1]}="([^"]*)"[^>]*data-i18n-${m[1]}="${m[2].replace(/\./g, '\\.')}"`);
      const found = attr.exec(html);
      if (found) assert.equal(decode(found[1]), t(m[2]), `${page}: ${m[1]} of ${m[2]}`);
    }
  }
  assert.ok(checked > 80, `only ${checked} texts checked`);
});

/**
 * The keys a script asks for: each quoted key of the catalog, and each
 * prefix of a key it makes (t(`level.${n}`)) as the keys it may make.
 * @param {string} src
 */
function askedKeys(src) {
  const keys = Object.keys(en);
  return [
    ...[...src.matchAll(/'([a-z][a-zA-Z]*\.[a-zA-Z0-9.]+)'/g)].map((m) => m[1]).filter((k) => k in en),
    ...[...src.matchAll(/`([a-z][a-zA-Z]*\.[\w.]*)\$\{/g)]
      .flatMap((m) => keys.filter((k) => k.startsWith(m[1]))),
  ];
}

test('each page carries the messages its scripts ask for', () => {
  let checked = 0;
  for (const page of pages) {
    const html = readPage(page);
    const entry = html.match(/<script type="module" src="\/(js\/[^"]+)"/);
    const names = pageKeys(html);
    if (!entry) {
      assert.equal(names, null, `${page} has messages but no script`);
      continue;
    }
    assert.ok(names, `${page} has a script but no messages`);
    for (const file of moduleGraph(entry[1])) {
      for (const key of askedKeys(readFileSync(new URL(file, WEB), 'utf8'))) {
        assert.ok(asksFor(names, key), `${page}: ${file} asks for ${key}, not in data-keys`);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} keys checked`);
});

// The game page's messages count in its size budget (budget.test.js):
// it carries those its scripts ask for and no other. Its texts in the
// HTML are written by the server and need none.
test('the game page carries no message its scripts do not ask for', () => {
  const html = readPage('game.html');
  const names = pageKeys(html);
  const asked = new Set(moduleGraph('js/main.js')
    .flatMap((file) => askedKeys(readFileSync(new URL(file, WEB), 'utf8'))));
  assert.ok(asked.size > 100, `only ${asked.size} keys asked for`);
  const carried = Object.keys(en).filter((key) => asksFor(names, key));
  assert.deepEqual(carried.filter((key) => !asked.has(key)), []);
  // Each name of data-keys carries something.
  assert.deepEqual(names.filter((name) => !carried.some((key) => asksFor([name], key))), []);
});

test('every key the scripts ask for is in the catalog', () => {
  const dir = new URL('js/', WEB);
  const missing = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const src = readFileSync(new URL(file, dir), 'utf8');
    for (const m of src.matchAll(/\bt\('([a-zA-Z]+\.[a-zA-Z.]+)'/g)) {
      if (!(m[1] in en)) missing.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('every end reason and server error code has a message', () => {
  for (const r of ['no_stones', 'no_legal_step', 'fifty_turns', 'resignation', 'agreement', 'abandonment']) {
    assert.ok(`reason.${r}` in en, r);
  }
  // Every code of the error table in docs/API.md.
  const api = readFileSync(new URL('docs/API.md', ROOT), 'utf8');
  const codes = [...api.matchAll(/^\| `([a-z_]+)` \| \d{3} \|/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 30, `only ${codes.length} codes found in docs/API.md`);
  const missing = codes.filter((c) => !(`error.${c}` in en) && !['custom_start_disabled', 'bad_position'].includes(c));
  assert.deepEqual(missing, []);
});

test('pages have no inline scripts, styles or event handlers', () => {
  for (const page of pages) {
    const html = readPage(page);
    // The messages are data (type="application/json"), never run.
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/, `${page}: inline script`);
    assert.doesNotMatch(html, /<style[\s>]/, `${page}: style element`);
    assert.doesNotMatch(html, /\sstyle="/, `${page}: style attribute`);
    assert.doesNotMatch(html, /\son[a-z]+="/, `${page}: event handler attribute`);
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, `${page}: third-party resource`);
  }
});
