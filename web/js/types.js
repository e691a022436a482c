// The shapes the client's modules pass one another, as JSDoc types for
// readers and editors (`@param {import('./types.js').ViewState} state`).
// No page loads this file: the types cost the pages nothing.

/**
 * A step the server listed as legal.
 * @typedef {{from: string, to: string, kind: string, captures: string[]}} Step
 */

/**
 * The view state of a board. A plain object, never changed in place: the
 * functions of the state-*.js files make a new one from an old one. No
 * DOM in any of them, so Node tests all of it: its shape and modes
 * (state-core), questions about it (state-queries), what the server says
 * (state-server), the player's hand on the board (state-board), the other
 * actions and the page's settings (state-actions), what to draw
 * (state-draw).
 *
 * The server is the authority. `game` is the last state it sent; `board`
 * is what is shown, which may run one step ahead of it while a step is on
 * its way (optimistic). The server's next state replaces it; an error
 * rolls it back.
 * @typedef {object} ViewState
 * @property {string|null} role 'white', 'black', 'spectator' or null before the welcome
 * @property {string|null} seatLink
 * @property {boolean} flipped the player turned the board round
 * @property {GameState|null} game last state from the server
 * @property {Board|null} board the board shown for the live game
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
 * @property {Hint|null} hint the server's hint for the position shown
 * @property {string|null} hintAsked the position a hint was asked for (positionKey), until it comes
 * @property {number|null} levelAsked the computer's level the player chose, until the server confirms it
 */

/**
 * The computer's seat, in a game against it.
 * @typedef {{color: 'white'|'black', level: number, name: string, thinking: boolean}} Computer
 */

/**
 * The client's own shape of a game state (docs/API.md, "The state message").
 * @typedef {object} GameState
 * @property {string} game the game id
 * @property {number} version grows with every published state
 * @property {number} seq number of accepted actions
 * @property {string} position position text of the board now
 * @property {string} startPosition position text the game started from
 * @property {'white'|'black'} turn side to move
 * @property {{stone: string, visited: string[], lastDirection: string|null, captured: string[], notation: string} | null} chain
 *   the turn in progress after a capture that may continue
 * @property {Array<{from: string, to: string, kind: string, captures: string[]}>} steps the legal steps
 * @property {boolean} canEndTurn
 * @property {string[]} moves completed turns in notation
 * @property {string[][]|null} captures the points each turn of `moves` took; null when the server does not say
 * @property {{notation: string|null, path: string[], captured: string[]}} lastTurn
 * @property {number} turnsSinceCapture
 * @property {{white: {joined: boolean, connected: boolean}, black: {joined: boolean, connected: boolean}}} players
 * @property {'white'|'black'|null} drawOffer the side offering a draw
 * @property {'white'|'black'|null} takebackOffer the side asking to take back its last turn
 * @property {boolean} abandoned the side to move has been away long enough for a win to be claimed
 * @property {{white: boolean, black: boolean}} rematch who has asked for a rematch
 * @property {string|null} nextGame the game a rematch created
 * @property {{winner: 'white'|'black'|null, reason: string} | null} result
 * @property {Computer|null} computer the computer's seat; null in games between people
 * @property {{real: boolean, minutes: number|null, increment: number|null, days: number|null,
 *   white: number, black: number, running: 'white'|'black'|null}|null} clock
 *   the clocks as they stood when the state was sent (milliseconds left); null without clocks
 * @property {Array<{by: string, text: string, seq: number}>} messages the last, oldest first
 * @property {number} watching
 * @property {{white: number, black: number, draws: number}|null} match
 */

/**
 * The server's hint: the first step of the best turn from the position
 * now, or the advice to end the turn.
 * @typedef {{from: string|null, to: string|null, kind: string|null, turn: string|null, endTurn: boolean}} Hint
 */

/**
 * A board is an array of 45 entries indexed by squareIndex: 'W', 'B' or null.
 * @typedef {Array<'W'|'B'|null>} Board
 * @typedef {{board: Board, turn: 'white'|'black', quiet: number}} Position
 */

/**
 * One position of a replayed game.
 * @typedef {Position & {path: string[], captured: string[], notation: string|null}} Ply
 */

/**
 * The drawn board: the SVG root and, per point, its elements.
 * @typedef {object} BoardDom
 * @property {SVGSVGElement} svg
 * @property {Map<string, object>} points
 * @property {string} bottom the orientation last drawn
 * @property {Array<'W'|'B'|null>|null} last the board last drawn
 */

/**
 * The result of handling a tap: the next state, and the intent to send
 * to the server, if any.
 * @typedef {{state: ViewState, intent: null | {type: string, step?: Step}}} Outcome
 */

/**
 * A game of this browser.
 * @typedef {object} GameEntry
 * @property {string} id
 * @property {'white'|'black'} color the colour this browser plays
 * @property {boolean} joined whether the opponent's seat is taken
 * @property {number} lastActive when the game was last seen, in ms since 1970
 * @property {string|null} invite the invitation link, while nobody joined
 * @property {number|null} computer the computer's level in a game against it, else null
 */

/**
 * A page's translator (i18n.js): the message of `key` in the page's
 * language, its {placeholders} filled from `params`.
 * @typedef {(key: string, params?: Record<string, unknown>) => string} Translate
 */

export {};

/**
 * A frame from the server, as protocol.js reads it.
 * @typedef {{type: 'welcome', game: string, role: string, seatLink: string|null}
 *   | {type: 'state', state: GameState}
 *   | {type: 'error', code: string, message: string}
 *   | {type: 'hint', hint: Hint}} ServerMessage
 */

/**
 * The answer to a create request. A game against the computer has no
 * invitation: `inviteLink` is null and `computer` says its seat.
 * @typedef {{id: string, color: 'white'|'black', seatLink: string, inviteLink: string|null,
 *   spectatorLink: string, computer: Computer|null}} Created
 */
