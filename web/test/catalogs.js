// The message catalogs (web/i18n/<lang>.json) as the tests read them, and
// translators made from them: in the browser, a page gets its messages
// from the server; in Node, from the files.

import { readFileSync } from 'node:fs';
import { translator, LANGS } from '../js/i18n.js';

/**
 * The catalog of `lang`.
 * @param {string} lang
 * @returns {Record<string, string | Record<string, string>>}
 */
export function catalog(lang) {
  return JSON.parse(readFileSync(new URL(`../i18n/${lang}.json`, import.meta.url), 'utf8'));
}

/** Every catalog, by language. */
export const CATALOGS = Object.freeze(Object.fromEntries(LANGS.map((lang) => [lang, catalog(lang)])));

/**
 * A translator for `lang` with its whole catalog.
 * @param {string} [lang]
 */
export function translatorFor(lang = 'en') {
  return translator(lang, CATALOGS[lang]);
}
