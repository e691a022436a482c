// The game page's view state: a plain object, and the pure functions that
// make a new state from an old one. No DOM here, so Node tests all of it.
// Everything the page shows is in it, down to the point under the pointer,
// the stone being dragged and the resign question; input.js decides which
// of these functions an event calls.
//
// The server is the authority. `game` is the last state it sent; `board`
// is what is shown, which may run one step ahead of it while a step is on
// its way (optimistic). The server's next state replaces it; an error
// rolls it back.

import { Color } from './geometry.js';
import { isLevel } from './protocol.js';
import {
  parsePosition, applyStep, replay, positionText, stoneAt, stoneOf,
} from './position.js';

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

// ---- questions about a state --------------------------------------------------

/** The colour at the bottom of the board. */
export function bottomColor(state) {
  const own = state.role === Color.Black ? Color.Black : Color.White;
  if (!state.flipped) return own;
  return own === Color.White ? Color.Black : Color.White;
}

/** Whether the browser holds a seat (is not a spectator). */
export function isPlayer(state) {
  return state.role === Color.White || state.role === Color.Black;
}

/** Whether the game is against the computer. */
export function againstComputer(state) {
  return Boolean(state.game && state.game.computer);
}

/** Whether the computer is searching or playing out its turn. */
export function computerThinking(state) {
  return Boolean(state.game && state.game.computer && state.game.computer.thinking && !state.game.result);
}

/**
 * Whether this player's opponent has not taken their seat yet: the game
 * cannot start, so nothing is anyone's turn. The computer is always there.
 */
export function waitingForFriend(state) {
  const g = state.game;
  if (!g || g.result || !isPlayer(state) || g.computer) return false;
  const friend = state.role === Color.White ? Color.Black : Color.White;
  return !g.players[friend].joined;
}

/** Whether it is this player's turn in the live game (never before the friend joins). */
export function isMyTurn(state) {
  const g = state.game;
  return Boolean(g && !g.result && isPlayer(state) && g.turn === state.role && !waitingForFriend(state));
}

/** Whether the board accepts moves now: not while the connection is down. */
export function canAct(state) {
  return isMyTurn(state) && state.browse === null && !state.pending && state.link === Link.Open;
}

/**
 * Whether the player may take back their last turn (and the computer's
 * reply): in a game against the computer, once they have completed a
 * turn, while the game goes on or after it ended on the board (not
 * after a resignation, nor once the next game exists).
 */
export function canTakeBack(state) {
  const g = state.game;
  if (!g || !g.computer || !isPlayer(state) || state.link !== Link.Open) return false;
  if (g.nextGame || (g.result && g.result.reason === 'resignation')) return false;
  return g.moves.some((_, i) => sideOfTurn(g, i) === state.role);
}

/**
 * What a hint depends on: the position and the turn in progress. Not
 * `seq`, which a hint itself moves on (hints are stored actions).
 * @param {GameState} game
 * @returns {string}
 */
export function positionKey(game) {
  return `${game.game} ${game.position} ${game.chain ? game.chain.visited.join('') : ''}`;
}

/** Whether the player may ask for a hint now: on their turn, one at a time. */
export function canAskHint(state) {
  return againstComputer(state) && canAct(state) && state.hintAsked === null;
}

/** The computer's level as the page shows it: the one chosen, until the server confirms it. */
export function shownLevel(state) {
  if (state.levelAsked !== null) return state.levelAsked;
  return state.game && state.game.computer ? state.game.computer.level : null;
}

/** Whether a capture is compulsory: every legal step of the turn captures. */
export function mustCapture(state) {
  const g = state.game;
  if (!g || g.chain || g.steps.length === 0) return false;
  return g.steps.every((s) => s.kind !== 'paika');
}

/**
 * The squares of the stones that can move now.
 * @returns {string[]}
 */
export function movableStones(state) {
  if (!canAct(state)) return [];
  return [...new Set(state.game.steps.map((s) => s.from))];
}

/**
 * Where a stone can go, and what each step would take.
 * @param {ViewState} state
 * @param {string} from
 * @returns {Map<string, Array<{kind: string, captures: string[]}>>}
 */
export function targetsFrom(state, from) {
  const out = new Map();
  if (!canAct(state)) return out;
  for (const s of state.game.steps) {
    if (s.from !== from) continue;
    if (!out.has(s.to)) out.set(s.to, []);
    out.get(s.to).push({ kind: s.kind, captures: s.captures });
  }
  return out;
}

/**
 * The step from one point to another that the rules refuse here, with
 * the code of their reason, when the server listed it: the rules page's
 * boards get these (GET /api/steps); a game's state lists none.
 * @param {ViewState} state
 * @param {string} from
 * @param {string} to
 * @returns {{from: string, to: string, reason: string}|null}
 */
export function refusedStep(state, from, to) {
  const refused = (state.game && state.game.refused) || [];
  return refused.find((s) => s.from === from && s.to === to) || null;
}

/**
 * The colour that played turn `i` (0-based) of a game's move list.
 * @param {GameState} game
 * @param {number} i
 * @returns {'white'|'black'}
 */
export function sideOfTurn(game, i) {
  const start = parsePosition(game.startPosition);
  const first = start ? start.turn : Color.White;
  const other = first === Color.White ? Color.Black : Color.White;
  return i % 2 === 0 ? first : other;
}

/**
 * What changed about draw offers between two states of a game, for this
 * player: 'offered' when the friend has just offered a draw, 'declined'
 * when the player's own offer was refused (not when it lapsed because the
 * friend played, nor when the game ended).
 * @param {GameState|null} before
 * @param {GameState} after
 * @param {string|null} role
 * @returns {'offered'|'declined'|null}
 */
export function drawOfferNews(before, after, role) {
  if (!before || before.game !== after.game || after.result) return null;
  if (role !== Color.White && role !== Color.Black) return null;
  if (after.drawOffer && after.drawOffer !== role && before.drawOffer !== after.drawOffer) return 'offered';
  const lapsed = after.moves.length !== before.moves.length;
  if (before.drawOffer === role && !after.drawOffer && !lapsed) return 'declined';
  return null;
}

/** The input mode the board is in. */
export function mode(state) {
  if (!canAct(state)) return Mode.Locked;
  if (state.choosing) return Mode.Choosing;
  if (state.selected) return Mode.Selected;
  return Mode.Idle;
}

// ---- transitions ----------------------------------------------------------

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
 * Takes a new state from the server: it replaces the optimistic board, and
 * the selection is kept only where it still makes sense. Older versions
 * than the one shown are ignored.
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
 * Selects one of the player's movable stones, or clears the selection
 * when given null. A stone in the middle of a chain stays selected.
 * @param {ViewState} state
 * @param {string|null} sq
 * @returns {ViewState}
 */
export function select(state, sq) {
  if (state.game && state.game.chain && isMyTurn(state)) {
    return { ...state, selected: state.game.chain.stone, choosing: null };
  }
  if (sq !== null && !movableStones(state).includes(sq)) return state;
  return { ...state, selected: sq, choosing: null, notice: null };
}

/**
 * Plays a step on the shown board at once, before the server answers.
 * @param {ViewState} state
 * @param {Step} step one of the legal steps
 * @returns {ViewState}
 */
export function playOptimistic(state, step) {
  const board = applyStep(state.board, step);
  const capture = step.kind !== 'paika';
  return {
    ...state,
    board,
    pending: step,
    turnPath: state.turnPath.length ? [...state.turnPath, step.to] : [step.from, step.to],
    selected: capture ? step.to : null,
    choosing: null,
    notice: { key: 'game.hint.sending' },
    hint: null,
  };
}

/**
 * The result of handling a tap: the next state, and the intent to send
 * to the server, if any.
 * @typedef {{state: ViewState, intent: null | {type: string, step?: Step}}} Outcome
 */

/**
 * A tap (or click, or Enter) on a point of the board with nothing selected:
 * selects a movable stone, or says why an own stone cannot move.
 * @param {ViewState} state in Mode.Idle
 * @param {string} sq
 * @returns {Outcome}
 */
export function tapWhileIdle(state, sq) {
  if (movableStones(state).includes(sq)) return { state: select(state, sq), intent: null };
  const own = stoneAt(state.board, sq) === stoneOf(state.role);
  if (own && mustCapture(state)) {
    return { state: { ...state, notice: { key: 'game.hint.mustCapture', error: true } }, intent: null };
  }
  return { state, intent: null };
}

/**
 * A tap on a point with a stone selected: a step when the point is a
 * target (or the line question when it takes either of two lines), the
 * rules' reason when they refuse the step there, else another selection.
 * @param {ViewState} state in Mode.Selected
 * @param {string} sq
 * @returns {Outcome}
 */
export function tapWhileSelected(state, sq) {
  const targets = targetsFrom(state, state.selected);
  const options = targets.get(sq);
  if (options && options.length === 1) return commit(state, { from: state.selected, to: sq, ...options[0] });
  if (options && options.length > 1) {
    return {
      state: { ...state, choosing: { from: state.selected, to: sq, options }, notice: { key: 'game.hint.chooseLine' } },
      intent: null,
    };
  }
  const refused = refusedStep(state, state.selected, sq);
  if (refused) {
    return { state: { ...state, notice: { key: `error.${refused.reason}`, error: true } }, intent: null };
  }
  if (state.game.chain) return { state, intent: null };
  if (sq === state.selected) return { state: select(state, null), intent: null };
  if (movableStones(state).includes(sq)) return { state: select(state, sq), intent: null };
  return { state: select(state, null), intent: null };
}

/**
 * A tap while the player chooses which line to take: a stone of one line
 * plays the step, the target backs out, anything else is a tap as if
 * nothing were asked.
 * @param {ViewState} state in Mode.Choosing
 * @param {string} sq
 * @returns {Outcome}
 */
export function tapWhileChoosing(state, sq) {
  const { from, to, options } = state.choosing;
  const chosen = options.find((o) => o.captures.includes(sq));
  if (chosen) return commit(state, { from, to, ...chosen });
  const back = { ...state, choosing: null, notice: null };
  if (sq === to) return { state: back, intent: null };
  return tapWhileSelected(back, sq);
}

function commit(state, step) {
  return { state: playOptimistic(state, step), intent: { type: 'step', step } };
}

/**
 * A stone dragged from one point and dropped on another: a step when the
 * drop is a target, otherwise the stone stays selected.
 * @param {ViewState} state
 * @param {string} from
 * @param {string|null} to
 * @returns {Outcome}
 */
export function drop(state, from, to) {
  if (!canAct(state) || !movableStones(state).includes(from)) return { state, intent: null };
  const selected = state.selected === from ? state : select(state, from);
  if (!to || to === from) return { state: selected, intent: null };
  return tapWhileSelected({ ...selected, choosing: null }, to);
}

/**
 * Ends the turn during a capture chain.
 * @param {ViewState} state
 * @returns {Outcome}
 */
export function endTurn(state) {
  if (!canAct(state) || !state.game.canEndTurn) return { state, intent: null };
  return {
    state: { ...state, selected: null, choosing: null, pending: { kind: 'end_turn' }, notice: null, hint: null },
    intent: { type: 'end_turn' },
  };
}

/** Backs out of the current choice or selection (Escape). */
export function cancel(state) {
  if (state.choosing) return { ...state, choosing: null, notice: null };
  return select(state, null);
}

/**
 * The pointer or the keyboard focus is over point `sq` (null: none).
 * Gives back the same state when nothing changes, so nothing is redrawn.
 * @param {ViewState} state
 * @param {string|null} sq
 * @returns {ViewState}
 */
export function hover(state, sq) {
  return state.hover === sq ? state : { ...state, hover: sq };
}

/**
 * A stone is picked up to be dragged: it is selected (if it may move) and
 * follows the pointer from (x, y).
 * @param {ViewState} state
 * @param {string} sq
 * @param {number} x
 * @param {number} y
 * @returns {ViewState}
 */
export function grab(state, sq, x, y) {
  const selected = state.selected === sq ? state : select(state, sq);
  return { ...selected, drag: { square: sq, x, y } };
}

/**
 * The dragged stone follows the pointer to (x, y).
 * @param {ViewState} state
 * @param {number} x
 * @param {number} y
 * @returns {ViewState}
 */
export function moveDrag(state, x, y) {
  return state.drag ? { ...state, drag: { ...state.drag, x, y } } : state;
}

/** The drag ends without a drop (the pointer was lost). */
export function endDrag(state) {
  return state.drag ? { ...state, drag: null } : state;
}

/** Asks the player whether they really resign. */
export function askResign(state) {
  return { ...state, resignConfirm: true };
}

/** The player does not resign after all. */
export function keepPlaying(state) {
  return { ...state, resignConfirm: false };
}

/**
 * The player confirms: the question goes and the resignation is sent.
 * @param {ViewState} state
 * @returns {Outcome}
 */
export function resign(state) {
  return { state: keepPlaying(state), intent: { type: 'resign' } };
}

/**
 * Takes back the player's last turn and the computer's reply: the board
 * waits for the server's state, which shows the position before them.
 * @param {ViewState} state
 * @returns {Outcome}
 */
export function takeBack(state) {
  if (!canTakeBack(state)) return { state, intent: null };
  return {
    state: { ...state, selected: null, choosing: null, hint: null, hintAsked: null, notice: null, resignConfirm: false },
    intent: { type: 'takeback' },
  };
}

/**
 * Asks the server for a hint on the position shown.
 * @param {ViewState} state
 * @returns {Outcome}
 */
export function askHint(state) {
  if (!canAskHint(state)) return { state, intent: null };
  return {
    state: { ...state, hint: null, hintAsked: positionKey(state.game), notice: null },
    intent: { type: 'hint' },
  };
}

/**
 * The server's hint arrived: it is shown if the position is still the
 * one it was asked for and it is still the player's turn.
 * @param {ViewState} state
 * @param {import('./protocol.js').Hint} hint
 * @returns {ViewState}
 */
export function receiveHint(state, hint) {
  const g = state.game;
  if (!g || state.hintAsked !== positionKey(g) || !isMyTurn(state)) return { ...state, hintAsked: null };
  return { ...state, hint, hintAsked: null };
}

/**
 * The player picks the computer's level for its next turns.
 * @param {ViewState} state
 * @param {number} level
 * @returns {Outcome}
 */
export function chooseLevel(state, level) {
  if (!againstComputer(state) || !isPlayer(state) || !isLevel(level) || level === shownLevel(state)) {
    return { state, intent: null };
  }
  const confirmed = level === state.game.computer.level;
  return {
    state: { ...state, levelAsked: confirmed ? null : level },
    intent: { type: 'set_level', level },
  };
}

/**
 * Sound on or off.
 * @param {ViewState} state
 * @param {boolean} on
 * @returns {ViewState}
 */
export function setSound(state, on) {
  return state.soundOn === on ? state : { ...state, soundOn: on };
}

/**
 * The invitation link this browser keeps for the friend's free seat, or
 * null when it has none.
 * @param {ViewState} state
 * @param {string|null} link
 * @returns {ViewState}
 */
export function setInviteLink(state, link) {
  return state.inviteLink === link ? state : { ...state, inviteLink: link };
}

/** Turns the board round. */
export function flip(state) {
  return { ...state, flipped: !state.flipped };
}

/**
 * Looks at an earlier position of the game, or back at the live game.
 * @param {ViewState} state
 * @param {number|null} index ply index; null or the last index for live
 * @returns {ViewState}
 */
export function browseTo(state, index) {
  const last = state.plies.length - 1;
  if (index === null || last < 0) return { ...state, browse: null };
  const i = Math.max(0, Math.min(last, Math.trunc(index)));
  return { ...state, browse: i === last ? null : i, choosing: null };
}

/**
 * Steps through the history: -1 back, +1 forward.
 * @param {ViewState} state
 * @param {number} delta
 */
export function browseBy(state, delta) {
  const current = state.browse === null ? state.plies.length - 1 : state.browse;
  return browseTo(state, current + delta);
}

// ---- what to draw -----------------------------------------------------------

/**
 * The stone being dragged as the drawing needs it, or null.
 * @param {ViewState} state
 * @returns {{x: number, y: number, color: 'W'|'B'|null}|null}
 */
export function dragView(state) {
  const d = state.drag;
  return d ? { x: d.x, y: d.y, color: state.board ? stoneAt(state.board, d.square) : null } : null;
}

/**
 * Everything the board drawing needs, derived from the state.
 * @param {ViewState} state
 * @returns {object}
 */
export function boardView(state) {
  const { hover } = state;
  const bottom = bottomColor(state);
  if (state.browse !== null) {
    const ply = state.plies[state.browse];
    return emptyView(ply.board, bottom, ply.path, ply.captured);
  }
  if (!state.board) return emptyView(null, bottom, [], []);
  const g = state.game;
  const inTurn = state.turnPath.length > 0;
  const path = inTurn ? state.turnPath : g.lastTurn.path;
  // The opponent's turn in progress leaves its captures as ghosts, as a
  // completed turn does; the player's own keeps the board clear.
  const opponentsChain = inTurn && g.chain && !isMyTurn(state) ? g.chain.captured : [];
  const captured = inTurn ? opponentsChain : g.lastTurn.captured;
  const view = emptyView(state.board, bottom, path, captured);
  view.chain = inTurn;
  view.movable = movableStones(state);
  view.selected = state.selected;
  if (state.hint && !state.hint.endTurn && canAct(state)) {
    view.hintFrom = state.hint.from;
    view.hintTo = state.hint.to;
  }
  if (state.selected && canAct(state)) {
    const targets = targetsFrom(state, state.selected);
    for (const [to, options] of targets) {
      view.targets.set(to, options.map((o) => o.captures.length));
      for (const o of options) for (const c of o.captures) view.threatened.add(c);
    }
    if (hover && targets.has(hover) && !state.choosing) {
      for (const o of targets.get(hover)) for (const c of o.captures) view.preview.add(c);
    }
  }
  if (state.choosing) {
    view.choice = state.choosing.options.map((o) => o.captures);
    view.choiceKinds = state.choosing.options.map((o) => o.kind);
    view.choiceTo = state.choosing.to;
  }
  return view;
}

function emptyView(board, bottom, path, captured) {
  return {
    board, bottom, path, captured, chain: false,
    movable: [], selected: null, targets: new Map(),
    threatened: new Set(), preview: new Set(), choice: null, choiceTo: null, hintFrom: null, hintTo: null,
  };
}
