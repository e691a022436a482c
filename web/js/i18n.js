// The page's language and messages. The server sends each page
// translated (from web/i18n/<lang>.json), <html lang> set, with the
// messages its scripts need as JSON in <script id="messages">.

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
 * Makes a translator for one language from its messages: a string with
 * {name} placeholders, or plural forms by Intl.PluralRules category (one,
 * other…) chosen by params.count, `other` standing in for a missing one.
 * Numbers are written as the language writes them. A key with no message
 * comes back as itself, so it shows (tests look for that).
 * @param {string} lang
 * @param {Record<string, string | Record<string, string>>} messages
 * @returns {import('./types.js').Translate}
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
 * Makes the language switcher's links keep the reader's place: the same
 * address, query and fragment (as sent they carry ?lang= alone).
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
