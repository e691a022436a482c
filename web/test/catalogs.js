// The message catalogs (web/i18n/<lang>.json) as the tests read them, and
// translators made from them: in the browser, a page gets its messages
// from the server; in Node, from the files.

import { readFileSync, readdirSync } from 'node:fs';
import { translator } from '../js/i18n.js';

/** The site's languages, as the switcher lists them (web/partials/langs.html). */
export const LANGS = Object.freeze([...readFileSync(new URL('../partials/langs.html', import.meta.url), 'utf8')
  .matchAll(/hreflang="([a-z]+)"/g)].map((m) => m[1]));

/**
 * The catalog of `lang`.
 * @param {string} lang
 * @returns {Record<string, string | Record<string, string>>}
 */
export function catalog(lang) {
  return JSON.parse(readFileSync(new URL(`../i18n/${lang}.json`, import.meta.url), 'utf8'));
}

/** Every catalog, by language: the files of web/i18n/. */
export const CATALOGS = Object.freeze(Object.fromEntries(readdirSync(new URL('../i18n/', import.meta.url))
  .filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).map((lang) => [lang, catalog(lang)])));

/**
 * A translator for `lang` with its whole catalog.
 * @param {string} [lang]
 */
export function translatorFor(lang = 'en') {
  return translator(lang, CATALOGS[lang]);
}
