// The view state of a board (types.js says its shape and how the
// state-*.js files share it): a fresh one, and the names of its input
// modes and connection states.

/**
 * The input modes of the board. Locked: it takes no move now (not this
 * player's turn, no friend yet, a step on its way, no connection, or an
 * earlier position shown).
 */
export const Mode = Object.freeze({
  Locked: 'locked', Idle: 'idle', Selected: 'selected', Choosing: 'choosing-capture',
});

/** States of the connection to the server. */
export const Link = Object.freeze({
  Connecting: 'connecting', Open: 'open', Reconnecting: 'reconnecting', Restarting: 'restarting',
  DatabaseUnavailable: 'database-unavailable',
});

/** @typedef {import('./types.js').ViewState} ViewState */

/**
 * A fresh state, before the server has said anything.
 * @returns {ViewState}
 */
export function createState() {
  return {
    role: null,
    seatLink: null,
    flipped: false,
    game: null,
    board: null,
    pending: null,
    turnPath: [],
    selected: null,
    choosing: null,
    plies: [],
    browse: null,
    notice: null,
    link: Link.Connecting,
    notFound: false,
    hover: null,
    drag: null,
    resignConfirm: false,
    soundOn: true,
    drawDeclinedAt: null,
    inviteLink: null,
    hint: null,
    hintAsked: null,
    levelAsked: null,
  };
}
