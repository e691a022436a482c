// The page's language and messages. The server sends each page already
// translated (web/i18n/<lang>.json is the one catalog per language), with
// <html lang> set and the messages its scripts need as JSON in
// <script type="application/json" id="messages">. Scripts read them here.

/** The language used when nothing better is known. */
export const DEFAULT_LANG = 'en';

/**
 * The language a document is in: its <html lang>, which the server sets
 * to one of the site's languages.
 * @param {Document} doc
 * @returns {string}
 */
export function pageLang(doc) {
  return doc.documentElement.lang || DEFAULT_LANG;
}

/**
 * The messages the server put into a document; none when there are none
 * or they cannot be read.
 * @param {Document} doc
 * @returns {Record<string, string | Record<string, string>>}
 */
export function pageMessages(doc) {
  const el = doc.getElementById('messages');
  if (!el) return {};
  try {
    const messages = JSON.parse(el.textContent || '{}');
    return messages && typeof messages === 'object' ? messages : {};
  } catch {
    return {};
  }
}

/**
 * Makes a translator for one language from its messages.
 * A message is a string with {name} placeholders, or an object of plural
 * forms by the categories of Intl.PluralRules for the language (one,
 * other…), chosen by params.count; a category the message lacks takes its
 * `other`. Numbers are written as the language writes them. A key with no
 * message comes back as itself, so it shows (tests look for that).
 * @param {string} lang
 * @param {Record<string, string | Record<string, string>>} messages
 * @returns {(key: string, params?: Record<string, unknown>) => string}
 */
export function translator(lang, messages) {
  const plural = new Intl.PluralRules(lang);
  const number = new Intl.NumberFormat(lang);
  const write = (value) => (typeof value === 'number' ? number.format(value) : String(value));
  return function t(key, params = {}) {
    let msg = messages[key];
    if (msg === undefined) return key;
    if (typeof msg === 'object') {
      msg = msg[plural.select(Number(params.count) || 0)] ?? msg.other;
    }
    return msg.replace(/\{(\w+)\}/g, (m, name) => (name in params ? write(params[name]) : m));
  };
}

/**
 * The translator of this page, in its language.
 * @param {Document} doc
 */
export function pageTranslator(doc) {
  return translator(pageLang(doc), pageMessages(doc));
}

/**
 * `href` with its `lang` parameter set to `lang`, keeping everything else
 * (an invitation's token, the fragment).
 * @param {string} href an absolute address
 * @param {string} lang
 */
export function withLang(href, lang) {
  const url = new URL(href);
  url.searchParams.set('lang', lang);
  return url.href;
}

/**
 * Makes the language switcher's links keep the reader where they are:
 * the same address in the other language, with its query and fragment
 * (the links as sent only carry ?lang=, for browsers without scripts).
 * @param {Document} doc
 * @param {Location | URL} loc
 */
export function keepPlace(doc, loc) {
  for (const a of doc.querySelectorAll('.langs a[hreflang]')) {
    const aim = () => { a.href = withLang(loc.href, a.getAttribute('hreflang')); };
    aim();
    // The address may have changed since (a seat link leaves it).
    a.addEventListener('click', aim);
  }
}
