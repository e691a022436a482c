// What the front page remembers between visits: whom the person last
// chose to play, and the computer's level. Small readers and writers of
// localStorage that never throw and accept only known values.

import { isLevel } from './protocol.js';

/** The localStorage items. */
export const PREFS = Object.freeze({ Opponent: 'fanorona.opponent', Level: 'fanorona.level' });

/** Whom the front page offers to play. */
export const Opponent = Object.freeze({ Friend: 'friend', Computer: 'computer' });

/** The level offered before the person has chosen one. */
export const DEFAULT_LEVEL = 1;

function read(storage, item) {
  try {
    return storage ? storage.getItem(item) : null;
  } catch {
    return null;
  }
}

function write(storage, item, value) {
  try {
    if (storage) storage.setItem(item, value);
  } catch {
    // A full or refused storage only forgets the choice.
  }
}

/**
 * The opponent last chosen; a friend when none was.
 * @param {Storage|null} storage
 * @returns {string} one of Opponent
 */
export function loadOpponent(storage) {
  const value = read(storage, PREFS.Opponent);
  return Object.values(Opponent).includes(value) ? value : Opponent.Friend;
}

/**
 * Remembers the opponent chosen.
 * @param {Storage|null} storage
 * @param {string} opponent one of Opponent
 */
export function saveOpponent(storage, opponent) {
  if (Object.values(Opponent).includes(opponent)) write(storage, PREFS.Opponent, opponent);
}

/**
 * The computer's level last chosen; DEFAULT_LEVEL when none was.
 * @param {Storage|null} storage
 * @returns {number}
 */
export function loadLevel(storage) {
  const text = read(storage, PREFS.Level);
  const level = /^[1-9]$/.test(text || '') ? Number(text) : NaN;
  return isLevel(level) ? level : DEFAULT_LEVEL;
}

/**
 * Remembers the computer's level.
 * @param {Storage|null} storage
 * @param {number} level
 */
export function saveLevel(storage, level) {
  if (isLevel(level)) write(storage, PREFS.Level, String(level));
}
