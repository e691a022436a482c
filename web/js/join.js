// The join key: a random key the invitation page draws once per game and
// sends with every try of the same join, so that a join whose answer was
// lost gets the same seat when it is sent again (docs/API.md). It is kept
// in sessionStorage, per game, for the life of the tab.

const KEY = /^[A-Za-z0-9_-]{22,64}$/;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A new join key: 128 random bits as 22 base64url characters.
 * @param {(bytes: Uint8Array) => Uint8Array} randomValues crypto.getRandomValues
 * @returns {string}
 */
export function newJoinKey(randomValues) {
  const bytes = randomValues(new Uint8Array(16));
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += BASE64URL[(value >> bits) & 63];
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE64URL[(value << (6 - bits)) & 63];
  return out;
}

/**
 * Whether a text is a join key the server accepts.
 * @param {unknown} text
 */
export function isJoinKey(text) {
  return typeof text === 'string' && KEY.test(text);
}

/**
 * The join key of game `id` in this tab: the one kept in `storage`, or a
 * new one, kept there. Works without storage (a key for this page only).
 * @param {Storage|null} storage sessionStorage
 * @param {string} id
 * @param {(bytes: Uint8Array) => Uint8Array} randomValues
 * @returns {string}
 */
export function joinKeyFor(storage, id, randomValues) {
  const name = `fanorona.join.${id}`;
  try {
    const kept = storage ? storage.getItem(name) : null;
    if (isJoinKey(kept)) return kept;
  } catch {
    // Storage refused: fall through to a new key.
  }
  const key = newJoinKey(randomValues);
  try {
    if (storage) storage.setItem(name, key);
  } catch {
    // A key for this page only is still a key.
  }
  return key;
}
