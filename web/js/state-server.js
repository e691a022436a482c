// What the server says, as transitions of the view state: the welcome,
// the connection, a game's state, a refusal, a hint; and a state made
// from a position alone, as if a server had sent it.

import { parsePosition, replay, positionText } from './position.js';
import { Link, createState } from './state-core.js';
import { positionKey, drawOfferNews, isMyTurn, movableStones } from './state-queries.js';

/**
 * @typedef {import('./types.js').ViewState} ViewState
 * @typedef {import('./types.js').GameState} GameState
 */

/**
 * The server's welcome: who this browser is in the game, and the player's
 * own link (null for a spectator).
 * @param {ViewState} state
 * @param {string} role
 * @param {string|null} seatLink
 * @returns {ViewState}
 */
export function receiveWelcome(state, role, seatLink) {
  return { ...state, role, seatLink };
}

/**
 * The connection changed: one of Link.
 * @param {ViewState} state
 * @param {string} link
 * @returns {ViewState}
 */
export function setLink(state, link) {
  return state.link === link ? state : { ...state, link };
}

/** There is no such game: the page says so instead of a board. */
export function gameNotFound(state) {
  return { ...state, notFound: true };
}

/**
 * Takes a new state from the server: it replaces the optimistic board,
 * keeps the selection where it still makes sense, and is ignored when
 * older than the one shown.
 * @param {ViewState} state
 * @param {GameState} game
 * @returns {ViewState}
 */
export function receiveState(state, game) {
  if (state.game && game.game === state.game.game && game.version < state.game.version) {
    return state;
  }
  const pos = parsePosition(game.position);
  if (!pos) return { ...state, notice: { key: 'error.unknown', error: true } };
  let plies = game.captures ? replay(game.startPosition, game.moves, game.captures) : [];
  if (plies.length !== game.moves.length + 1) {
    // The server did not say what each turn took (an older server), or said
    // it unreadably: only the live position can be shown.
    plies = [{ ...pos, path: [], captured: [], notation: null }];
  }
  const next = {
    ...state,
    game,
    board: pos.board,
    pending: null,
    turnPath: game.chain ? game.chain.visited : [],
    choosing: null,
    plies,
    browse: state.browse !== null && state.browse < plies.length - 1 ? state.browse : null,
    link: Link.Open,
    notFound: false,
  };
  // A hint holds for the position it was asked for.
  if (!state.game || positionKey(game) !== positionKey(state.game)) {
    next.hint = null;
    next.hintAsked = null;
  }
  if (game.computer && game.computer.level === state.levelAsked) next.levelAsked = null;
  // A refused offer stays said until the next move or offer.
  if (drawOfferNews(state.game, game, state.role) === 'declined') next.drawDeclinedAt = game.moves.length;
  if (state.notice && !state.notice.error) next.notice = null;
  if (state.pending) next.notice = null;
  if (game.chain && isMyTurn(next)) {
    next.selected = game.chain.stone;
  } else if (!movableStones(next).includes(state.selected)) {
    next.selected = null;
  }
  return next;
}

/**
 * The server refused an action: the optimistic step is rolled back and
 * the reason is shown.
 * @param {ViewState} state
 * @param {{code: string, message: string}} err
 * @returns {ViewState}
 */
export function receiveError(state, err) {
  const notice = { key: `error.${err.code}`, error: true, fallback: err.message };
  if (err.code === 'game_not_found') return { ...state, notFound: true, notice };
  state = { ...state, hintAsked: null, levelAsked: null };
  if (!state.pending) return { ...state, choosing: null, notice };
  const g = state.game;
  const chainStone = g.chain && isMyTurn(state) ? g.chain.stone : null;
  if (state.pending.kind === 'end_turn') {
    return { ...state, pending: null, selected: chainStone, notice };
  }
  return {
    ...state,
    board: parsePosition(g.position).board,
    selected: chainStone || state.pending.from,
    pending: null,
    turnPath: state.turnPath.length > 2 ? state.turnPath.slice(0, -1) : [],
    choosing: null,
    notice,
  };
}

/**
 * The server's hint arrived: it is shown if the position is still the
 * one it was asked for and it is still the player's turn.
 * @param {ViewState} state
 * @param {import('./types.js').Hint} hint
 * @returns {ViewState}
 */
export function receiveHint(state, hint) {
  const g = state.game;
  if (!g || state.hintAsked !== positionKey(g) || !isMyTurn(state)) return { ...state, hintAsked: null };
  return { ...state, hint, hintAsked: null };
}

/**
 * A state showing a position alone, without a game behind it (no legal
 * steps): for the test hook and for pictures.
 * @param {string} text position text
 * @returns {ViewState | null} null when the text is malformed
 */
export function stateFromPosition(text) {
  const pos = parsePosition(text);
  if (!pos) return null;
  const position = positionText(pos);
  const game = {
    game: '', version: 0, seq: 0, position, startPosition: position, turn: pos.turn, chain: null,
    steps: [], canEndTurn: false, moves: [], captures: [], lastTurn: { notation: null, path: [], captured: [] },
    turnsSinceCapture: pos.quiet,
    players: { white: { joined: false, connected: false }, black: { joined: false, connected: false } },
    drawOffer: null, abandoned: false, rematch: { white: false, black: false }, nextGame: null, result: null,
    computer: null,
  };
  return receiveState({ ...createState(), role: 'spectator', link: Link.Open }, game);
}
