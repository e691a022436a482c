// The invitation box of the front page and of the board while the friend
// has not joined: the link in a field, Copy, Share (the system share
// sheet, where there is one) and a QR code for a friend at the same table.

import { copyText } from './copy.js';
import { withLang } from './i18n.js';

/** @typedef {import('./types.js').Translate} Translate */

/**
 * Draws `text` as a QR code into an <svg>. The encoder (qr.js and its
 * vendored library, 8.5 KB compressed) is fetched for the first code:
 * most visits to the game page show none, and its budget has no room.
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
 * Binds the box's Copy and Share buttons (ids invite-link, copy, share,
 * qr) and returns the function that shows a link in it (again: nothing).
 * The link and its shared text open the invitation in `lang`, the
 * creator's language.
 * @param {Document} doc
 * @param {Translate} t
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
