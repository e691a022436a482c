// The invitation's QR code, made by the vendored encoder `uqr`
// (web/vendor/README.md says which version and how to update it): byte
// mode, error correction level M, versions 1 to 6 (up to 106 bytes, plenty
// for an invitation link). The page draws the result as one SVG path.

import { encode } from '../vendor/uqr.js';

/** The largest version made here. */
export const MAX_VERSION = 6;

/**
 * Encodes text (as UTF-8) into a QR code at level M.
 * @param {string} text
 * @param {{mask?: number}} [opts] a fixed mask instead of the best one
 * @returns {{version: number, mask: number, size: number, modules: boolean[][]}}
 * @throws {RangeError} when the text is too long for version 6
 */
export function encodeQr(text, opts = {}) {
  const bytes = [...new TextEncoder().encode(text)];
  let q;
  try {
    q = encode(bytes, {
      ecc: 'M', boostEcc: false, maxVersion: MAX_VERSION, maskPattern: opts.mask ?? -1, border: 0,
    });
  } catch (e) {
    if (!(e instanceof RangeError) || e.message !== 'Data too long') throw e;
    throw new RangeError(`text too long for a QR code here: ${bytes.length} bytes`, { cause: e });
  }
  return { version: q.version, mask: q.maskPattern, size: q.size, modules: q.data };
}

/**
 * The dark modules as one SVG path, one unit per module, with a quiet
 * zone of `margin` modules.
 * @param {boolean[][]} modules
 * @param {number} [margin]
 * @returns {{d: string, size: number}}
 */
export function qrPath(modules, margin = 4) {
  let d = '';
  modules.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (dark) d += `M${c + margin} ${r + margin}h1v1h-1z`;
    });
  });
  return { d, size: modules.length + 2 * margin };
}
