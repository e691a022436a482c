// The message catalog and the functions that read it. Every string a
// person sees comes from here; pages carry the English text too (so they
// read well before scripts run) and mark it with data-i18n="key".
// Another language is one more entry in CATALOGS.

import { en } from './messages-en.js';

/** Catalogs by language tag. */
export const CATALOGS = Object.freeze({ en });

/** The language used when nothing better matches. */
export const DEFAULT_LANG = 'en';

/**
 * Picks the best supported language from a list of preferences.
 * @param {readonly string[]} preferred e.g. navigator.languages
 * @returns {string}
 */
export function chooseLang(preferred) {
  for (const tag of preferred || []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (CATALOGS[base]) return base;
  }
  return DEFAULT_LANG;
}

/**
 * Fills {name} placeholders from params.
 * @param {string} text
 * @param {Record<string, unknown>} params
 */
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/**
 * Makes a translator for one language.
 * A message is a string, or an object of plural forms ({one, other}) chosen
 * by params.count.
 * @param {string} lang
 * @returns {(key: string, params?: Record<string, unknown>) => string}
 */
export function translator(lang) {
  const catalog = CATALOGS[lang] || CATALOGS[DEFAULT_LANG];
  const fallback = CATALOGS[DEFAULT_LANG];
  const plural = new Intl.PluralRules(lang);
  return function t(key, params = {}) {
    let msg = catalog[key] ?? fallback[key];
    if (msg === undefined) return key;
    if (typeof msg === 'object') {
      const form = plural.select(Number(params.count) || 0);
      msg = msg[form] ?? msg.other;
    }
    return fill(msg, params);
  };
}

/** Attributes that can be translated, as data-i18n-<attr>="key". */
const ATTRIBUTES = ['aria-label', 'title', 'placeholder', 'content', 'alt'];

/**
 * Puts the catalog's text into every element of a root marked with
 * data-i18n (text content) or data-i18n-<attribute> (that attribute).
 * @param {ParentNode} root
 * @param {(key: string) => string} t
 */
export function translatePage(root, t) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = t(el.getAttribute('data-i18n'));
  }
  for (const attr of ATTRIBUTES) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`)));
    }
  }
}
