// The view state of a board: its shape, a fresh one, and the names of
// its input modes and connection states. A plain object, never changed in
// place: the functions of the other state-*.js files make a new one from
// an old one. No DOM in any of them, so Node tests all of it: its shape
// and modes here, questions about it (state-queries), what the server
// says (state-server), the player's hand on the board (state-board), the
// other actions and the page's settings (state-actions), what to draw
// (state-draw).
//
// The server is the authority. `game` is the last state it sent; `board`
// is what is shown, which may run one step ahead of it while a step is on
// its way (optimistic). The server's next state replaces it; an error
// rolls it back.

/**
 * The input modes of the board. Locked: the board takes no move now (not
 * this player's turn, the friend has not joined, a step is on its way,
 * the connection is down, or an earlier position is shown).
 */
export const Mode = Object.freeze({
  Locked: 'locked', Idle: 'idle', Selected: 'selected', Choosing: 'choosing-capture',
});

/** States of the connection to the server. */
export const Link = Object.freeze({
  Connecting: 'connecting', Open: 'open', Reconnecting: 'reconnecting', Restarting: 'restarting',
  DatabaseUnavailable: 'database-unavailable',
});

/**
 * A step the server listed as legal.
 * @typedef {{from: string, to: string, kind: string, captures: string[]}} Step
 * @typedef {import('./protocol.js').GameState} GameState
 */

/**
 * The view state.
 * @typedef {object} ViewState
 * @property {string|null} role 'white', 'black', 'spectator' or null before the welcome
 * @property {string|null} seatLink
 * @property {boolean} flipped the player turned the board round
 * @property {GameState|null} game last state from the server
 * @property {import('./position.js').Board|null} board the board shown for the live game
 * @property {Step|null} pending a step sent and not yet answered
 * @property {string[]} turnPath the points of the turn in progress, in order, its start first
 * @property {string|null} selected
 * @property {{from: string, to: string, options: Array<{kind: string, captures: string[]}>}|null} choosing
 * @property {Array<object>} plies replayed history, entry 0 the start
 * @property {number|null} browse index into plies being looked at, null for the live game
 * @property {{key: string, params?: object, error?: boolean}|null} notice
 * @property {string} link one of Link
 * @property {boolean} notFound
 * @property {string|null} hover the point under the pointer or the keyboard focus
 * @property {{square: string, x: number, y: number}|null} drag the stone being dragged, in drawing coordinates
 * @property {boolean} resignConfirm the player is asked whether they really resign
 * @property {boolean} soundOn
 * @property {number|null} drawDeclinedAt the number of moves when the player's draw offer was declined
 * @property {string|null} inviteLink the invitation this browser keeps for the friend's seat
 * @property {import('./protocol.js').Hint|null} hint the server's hint for the position shown
 * @property {string|null} hintAsked the position a hint was asked for (positionKey), until it comes
 * @property {number|null} levelAsked the computer's level the player chose, until the server confirms it
 */

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
