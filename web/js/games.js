// The games this browser is in, kept in localStorage so that closing a
// tab loses none: the front page lists them, and a game's board finds its
// invitation link here until the friend joins. Pure functions over plain
// lists, and storage readers and writers that never throw.

/** The localStorage item that holds the list. */
export const GAMES_ITEM = 'fanorona.games';

/** The most games kept; the oldest go first. */
export const MAX_GAMES = 50;

const ID = /^[A-Za-z0-9]{1,64}$/;
const COLORS = ['white', 'black'];

/** @typedef {import('./types.js').GameEntry} GameEntry */

function isInviteOf(link, id) {
  if (typeof link !== 'string' || link.length > 512) return false;
  try {
    const url = new URL(link);
    return (url.protocol === 'https:' || url.protocol === 'http:')
      && url.pathname === `/g/${id}` && /^\?invite=[A-Za-z0-9]{22}$/.test(url.search);
  } catch {
    return false;
  }
}

/**
 * Reads one entry; null when it is not a valid one.
 * @param {unknown} raw
 * @returns {GameEntry|null}
 */
export function readEntry(raw) {
  if (!raw || typeof raw !== 'object') return null;
  const {
    id, color, joined, lastActive, invite, computer,
  } = /** @type {Record<string, unknown>} */ (raw);
  if (typeof id !== 'string' || !ID.test(id) || !COLORS.includes(/** @type {string} */ (color))) return null;
  // Beyond 8.64e15 ms a Date is invalid, and formatting it throws.
  if (typeof lastActive !== 'number' || !(lastActive >= 0 && lastActive <= 8.64e15)) return null;
  const isJoined = joined === true;
  return {
    id,
    color: /** @type {'white'|'black'} */ (color),
    joined: isJoined,
    lastActive,
    invite: !isJoined && isInviteOf(invite, id) ? /** @type {string} */ (invite) : null,
    computer: Number.isInteger(computer) && computer >= 1 && computer <= 6 ? /** @type {number} */ (computer) : null,
  };
}

/**
 * Newest first, each game once, at most MAX_GAMES.
 * @param {GameEntry[]} list
 * @returns {GameEntry[]}
 */
function tidy(list) {
  const seen = new Set();
  return [...list]
    .sort((a, b) => b.lastActive - a.lastActive)
    .filter((g) => (seen.has(g.id) ? false : seen.add(g.id)))
    .slice(0, MAX_GAMES);
}

/**
 * Reads the stored text of the list. Anything malformed is left out: bad
 * JSON, a value that is not a list, entries of the wrong shape.
 * @param {string|null} text
 * @returns {GameEntry[]} newest first
 */
export function parseGames(text) {
  let raw;
  try {
    raw = JSON.parse(String(text));
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return tidy(raw.map(readEntry).filter(Boolean));
}

/**
 * Adds or updates the entry of one game. The invitation link is kept
 * until the opponent joins, then dropped.
 * @param {GameEntry[]} list
 * @param {{id: string, color: string, joined: boolean, lastActive: number, invite?: string|null,
 *   computer?: number|null}} update
 * @returns {GameEntry[]} newest first
 */
export function recordGame(list, update) {
  const old = list.find((g) => g.id === update.id);
  const invite = update.invite !== undefined ? update.invite : (old ? old.invite : null);
  const computer = update.computer !== undefined ? update.computer : (old ? old.computer : null);
  const entry = readEntry({ ...update, invite, computer });
  if (!entry) return list;
  return tidy([entry, ...list.filter((g) => g.id !== update.id)]);
}

/**
 * The list without game `id`.
 * @param {GameEntry[]} list
 * @param {string} id
 * @returns {GameEntry[]}
 */
export function forgetGame(list, id) {
  return list.filter((g) => g.id !== id);
}

/**
 * The entry of game `id`, if any.
 * @param {GameEntry[]} list
 * @param {string} id
 * @returns {GameEntry|null}
 */
export function findGame(list, id) {
  return list.find((g) => g.id === id) || null;
}

/**
 * The list kept in `storage`; empty when there is none or it cannot be read.
 * @param {Storage|null} storage localStorage
 * @returns {GameEntry[]}
 */
export function loadGames(storage) {
  try {
    return storage ? parseGames(storage.getItem(GAMES_ITEM)) : [];
  } catch {
    return [];
  }
}

/**
 * Keeps `list` in `storage`; false when the storage refuses it.
 * @param {Storage|null} storage
 * @param {GameEntry[]} list
 */
export function saveGames(storage, list) {
  try {
    if (!storage) return false;
    storage.setItem(GAMES_ITEM, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}

/**
 * Applies `change` to the stored list and keeps the result.
 * @param {Storage|null} storage
 * @param {(list: GameEntry[]) => GameEntry[]} change
 * @returns {GameEntry[]} the new list
 */
export function updateGames(storage, change) {
  const list = change(loadGames(storage));
  saveGames(storage, list);
  return list;
}

/**
 * The browser's localStorage, or null where it is refused (some private
 * modes and embedded browsers).
 * @param {Window} win
 * @returns {Storage|null}
 */
export function localStore(win) {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}
