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
  return expand(readFileSync(new URL(name, WEB), 'utf8'));
}
