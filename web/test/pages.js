// The site's pages as the server sends them: a line
// `<!-- include NAME -->` of a page stands for web/partials/NAME.html, and
// `current=PATH` after the name marks the partial's link to PATH with
// aria-current="page" (see crates/fanorona-server/src/routes/files.rs).
// The tests read the pages through this, so they see what a browser gets.
import { readFileSync } from 'node:fs';

const WEB = new URL('../', import.meta.url);

/**
 * Puts the partials into `html`; a line whose partial or link is missing
 * stays as it is.
 * @param {string} html
 * @returns {string}
 */
export function expand(html) {
  return html.split(/(?<=\n)/).map((line) => {
    const m = line.trim().match(/^<!-- include (\S+)(?: current=(\S+))? -->$/);
    if (!m) return line;
    let text;
    try {
      text = readFileSync(new URL(`partials/${m[1]}.html`, WEB), 'utf8');
    } catch {
      return line;
    }
    if (!m[2]) return text;
    const link = `href="${m[2]}"`;
    const at = text.indexOf(link);
    if (at < 0) return line;
    return text.slice(0, at + link.length) + ' aria-current="page"' + text.slice(at + link.length);
  }).join('');
}

/**
 * The page `web/{name}` as the server sends it, before a template's
 * values are filled in.
 * @param {string} name
 * @returns {string}
 */
export function readPage(name) {
  // Twice: a partial may include another, as on the server.
  return expand(expand(readFileSync(new URL(name, WEB), 'utf8')));
}

/**
 * The modules a script loads, itself first, as paths inside web/.
 * @param {string} entry e.g. 'js/main.js'
 * @returns {string[]}
 */
export function moduleGraph(entry) {
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

/**
 * The messages a page asks the server for (its
 * `<script type="application/json" id="messages" data-keys="…">`), or
 * null when it has none: each name stands for the key it names and every
 * key under it (`game` is every `game.` key, `home.copied` that key).
 * @param {string} html
 * @returns {string[] | null}
 */
export function pageKeys(html) {
  const m = html.match(/<script type="application\/json" id="messages" data-keys="([^"]*)"><\/script>/);
  return m ? m[1].split(/\s+/).filter(Boolean) : null;
}

/**
 * Whether the names of a page's data-keys ask for `key`.
 * @param {string[]} names
 * @param {string} key
 */
export function asksFor(names, key) {
  return names.some((name) => key === name || key.startsWith(`${name}.`));
}

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A page in `lang` as the server makes it (routes/i18n.rs): marked texts
 * and attributes from the catalog, <html lang>, and the messages it
 * asks for. A second, simpler implementation, for the size budget.
 * @param {string} html a page from readPage
 * @param {string} lang
 * @param {Record<string, unknown>} catalog
 */
export function localize(html, lang, catalog) {
  const text = (key) => {
    const msg = catalog[key];
    return typeof msg === 'object' ? msg.other : msg ?? key;
  };
  let out = html.replace('<html lang="en">', `<html lang="${lang}">`);
  out = out.replace(/(data-i18n="([^"{]+)"[^>]*>)[^<]*</g, (m, open, key) => `${open}${escape(text(key))}<`);
  out = out.replace(/(\s([a-z-]+)=")[^"]*("[^>]*data-i18n-\2="([^"{]+)")/g, (m, a, attr, b, key) => `${a}${escape(text(key))}${b}`);
  const names = pageKeys(html);
  if (names) {
    const messages = Object.fromEntries(Object.entries(catalog).filter(([k]) => asksFor(names, k)));
    out = out.replace(/(id="messages" data-keys="[^"]*">)/, `$1${JSON.stringify(messages).replace(/<\//g, '<\\/')}`);
  }
  return out;
}
