// The invitation box of the front page and of the board while the friend
// has not joined: the link in a field, Copy, Share (the system share
// sheet, where there is one) and a QR code for a friend at the same table.

import { copyText } from './copy.js';
import { withLang } from './i18n.js';

/**
 * Draws `text` as a QR code into an <svg>. The encoder (`qr.js` and the
 * vendored library it wraps, about 8.5 KB compressed) is fetched when the
 * first code is drawn: most visits to the game page never show one, and
 * its 60 KB budget has no room for it.
 * @param {SVGSVGElement} svg
 * @param {string} text
 */
export async function drawQr(svg, text) {
  const { encodeQr, qrPath } = await import('./qr.js');
  const { modules } = encodeQr(text);
  const { d, size } = qrPath(modules);
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const path = svg.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', '#000');
  svg.replaceChildren(path);
}

/**
 * Binds the Copy and Share buttons of the box (ids invite-link, copy,
 * share, qr) and returns the function that shows a link in it; showing
 * the same link again does nothing. The link shown, copied and shared
 * opens the invitation in `lang`, the creator's language, as does the
 * text shared with it.
 * @param {Document} doc
 * @param {(key: string) => string} t
 * @param {Navigator} nav
 * @param {string} lang
 * @returns {(link: string) => void}
 */
export function bindInvitation(doc, t, nav, lang) {
  const $ = (id) => doc.getElementById(id);
  let shown = null;
  $('copy').addEventListener('click', async (e) => {
    const ok = await copyText($('invite-link'));
    e.target.textContent = t(ok ? 'home.copied' : 'home.copyFailed');
  });
  if (typeof nav.share === 'function') {
    const share = $('share');
    share.hidden = false;
    share.addEventListener('click', () => {
      if (!shown) return;
      nav.share({ title: t('home.shareTitle'), text: t('home.shareText'), url: shown }).catch(() => {});
    });
  }
  return (link) => {
    const inLang = withLang(link, lang);
    if (inLang === shown) return;
    shown = inLang;
    $('invite-link').value = inLang;
    drawQr($('qr'), inLang).catch(() => {});
  };
}
