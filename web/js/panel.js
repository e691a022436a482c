// Draws all around the board from the view state (players, whose turn,
// hint, quiet turns, moves, result, buttons): writes the DOM, changes no state.

import { Link, Mode } from './state-core.js';
import { isPlayer, isMyTurn, canAct, mustCapture, bottomColor, sideOfTurn, mode, waitingForFriend, againstComputer, computerThinking, canTakeBack, hasCompletedTurn, canAskHint, shownLevel } from './state-queries.js';
import { countStones, parsePosition, positionText } from './position.js';
import { EndReason } from './protocol.js';

/** @typedef {import('./types.js').Translate} Translate */

const FIFTY = 50;

/**
 * Finds the page elements the panel writes to.
 * @param {Document} doc
 */
export function panelElements(doc) {
  const $ = (id) => doc.getElementById(id);
  const player = (id) => {
    const root = $(id);
    return {
      root,
      swatch: root.querySelector('.swatch'),
      who: root.querySelector('.who'),
      presence: root.querySelector('.presence'),
      count: root.querySelector('.count'),
      taken: root.querySelector('.taken'),
    };
  };
  return {
    top: player('player-top'),
    bottom: player('player-bottom'),
    turn: $('turn'), hint: $('hint'), quiet: $('quiet'), endTurn: $('end-turn'),
    result: $('result'), offer: $('offer'), drawDeclined: $('draw-declined'), claim: $('claim'),
    moves: $('moves'), noMoves: $('no-moves'), viewing: $('viewing'),
    histFirst: $('hist-first'), histPrev: $('hist-prev'), histNext: $('hist-next'), histLast: $('hist-last'),
    flip: $('flip'), sound: $('sound'), offerDraw: $('offer-draw'), resign: $('resign'),
    askTakeback: $('ask-takeback'), takebackOffer: $('takeback-offer'),
    resignConfirm: $('resign-confirm'), rematch: $('rematch'),
    seat: $('seat'), seatLink: $('seat-link'),
    invite: $('invite'), inviteShare: $('invite-share'), inviteElsewhere: $('invite-elsewhere'),
    game: $('game'), notFound: $('not-found'), heading: $('game-heading'),
    computerActions: $('computer-actions'), takeback: $('takeback'), askHint: $('ask-hint'),
    levelChoice: $('level-choice'), level: $('level'),
    record: $('record'), review: $('review-link'), analyse: $('analyse-link'), newGame: $('new-game'), series: $('series'),
    // A mouse or a keyboard clicks where a finger taps.
    touch: doc.defaultView.matchMedia('(pointer: coarse)').matches,
  };
}

/**
 * Fills the level chooser with the six levels, by number and name.
 * @param {HTMLSelectElement} select
 * @param {readonly number[]} levels
 * @param {Translate} t
 */
export function fillLevels(select, levels, t) {
  select.replaceChildren(...levels.map((level) => {
    const option = select.ownerDocument.createElement('option');
    option.value = String(level);
    option.textContent = t('game.levelOption', { level, name: t(`level.${level}`) });
    return option;
  }));
}

/**
 * The computer as the page names it: "Computer · Club (level 3)".
 * @param {{level: number, name: string}} computer
 * @param {Translate} t
 */
export function computerName(computer, t) {
  const key = `level.${computer.level}`;
  const name = t(key) === key ? computer.name : t(key);
  return t('game.computer', { name, level: computer.level });
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function show(node, on) {
  if (node.hidden === on) node.hidden = !on;
}

function setHref(node, href) {
  if (node.getAttribute('href') !== href) node.setAttribute('href', href);
}

function other(color) {
  return color === 'white' ? 'black' : 'white';
}

/**
 * A side's stones on the board, in words ("17 stones"); empty before the
 * board is known.
 * @param {Array<'W'|'B'|null>|null} board
 * @param {'white'|'black'} color
 * @param {Translate} t
 */
export function stoneCount(board, color, t) {
  return board ? t('game.stoneCount', { count: countStones(board)[color] }) : '';
}

/**
 * The page's heading: what this game is to the person looking at it.
 * @param {import('./types.js').ViewState} state
 * @param {Translate} t
 */
export function pageHeading(state, t) {
  if (!state.game || !state.role) return t('game.heading');
  if (!isPlayer(state)) return t('game.heading.watching');
  return t(againstComputer(state) ? 'game.heading.computer' : 'game.heading.friend');
}

function renderPlayer(p, color, state, t) {
  const g = state.game;
  if (g && g.computer && g.computer.color === color) {
    renderComputer(p, color, state, t);
    return;
  }
  p.swatch.className = `swatch ${color}`;
  const name = t(`color.${color}`);
  const who = !isPlayer(state) ? name
    : t(color === state.role ? 'game.player.you' : 'game.player.friend', { color: name });
  setText(p.who, who);
  const presence = g ? g.players[color] : null;
  const key = !presence || !presence.joined ? 'game.notJoined'
    : presence.connected ? 'game.online' : 'game.away';
  setText(p.presence, color === state.role ? '' : t(key));
  p.presence.className = `presence ${key.slice(5)}`;
  renderCounts(p, color, state, t);
  p.root.classList.toggle('to-move', Boolean(g && !g.result && g.turn === color));
}

/**
 * The stones a side has taken: the other colour's gone from the board
 * shown since the start.
 * @param {import('./types.js').ViewState} state
 * @param {'white'|'black'} color
 * @returns {number}
 */
export function takenBy(state, color) {
  const start = state.game && parsePosition(state.game.startPosition);
  if (!start || !state.board) return 0;
  return countStones(start.board)[other(color)] - countStones(state.board)[other(color)];
}

// "17 stones", and beside it "5 taken" once the side has taken any.
function renderCounts(p, color, state, t) {
  setText(p.count, stoneCount(state.board, color, t));
  const taken = takenBy(state, color);
  setText(p.taken, taken > 0 ? t('game.taken', { count: taken }) : '');
  p.taken.className = `taken ${other(color)}`;
}

function renderComputer(p, color, state, t) {
  const g = state.game;
  p.swatch.className = `swatch ${color}`;
  setText(p.who, computerName(g.computer, t));
  const thinking = computerThinking(state);
  setText(p.presence, thinking ? t('game.thinking') : '');
  p.presence.className = thinking ? 'presence thinking' : 'presence none';
  renderCounts(p, color, state, t);
  p.root.classList.toggle('to-move', Boolean(!g.result && g.turn === color));
}

/**
 * The score across rematches (a draw is ½ each) and how many watch.
 * @param {import('./state-core.js').ViewState} state
 * @param {(key: string, params?: object) => string} t
 */
export function seriesLine(state, t) {
  const g = state.game || {};
  const m = g.match;
  // Against the computer, in colours as to others.
  const mine = isPlayer(state) && !g.computer;
  const me = mine ? state.role : 'white';
  const points = (c) => (m.draws % 2 ? `${m[c] + (m.draws >> 1) || ''}½` : m[c] + m.draws / 2);
  return [m && t(mine ? 'game.match.friend' : 'game.match', { mine: points(me), theirs: points(other(me)) }),
    g.watching && t('game.watchers', { count: g.watching })].filter(Boolean).join(' · ');
}

function turnLine(state, t) {
  const g = state.game;
  if (state.link === Link.Reconnecting) return t('game.reconnecting');
  if (state.link === Link.Restarting) return t('game.restarting');
  if (state.link === Link.DatabaseUnavailable) return t('game.databaseUnavailable');
  if (!g) return t('game.connecting');
  if (g.result || waitingForFriend(state)) return '';
  if (isMyTurn(state)) return t('game.yourTurn');
  if (g.computer && g.turn === g.computer.color) return t(computerThinking(state) ? 'game.thinking' : 'game.computerTurn');
  if (isPlayer(state)) return t('game.theirTurn');
  return t('game.sideToMove', { color: t(`color.${g.turn}`) });
}

function hintLine(state, t, touch) {
  if (state.notice) {
    const text = t(state.notice.key === 'game.hint.chooseLine' && !touch ? 'game.hint.chooseLineClick' : state.notice.key);
    return text === state.notice.key ? state.notice.fallback || t('error.unknown') : text;
  }
  if (!canAct(state)) return state.role === 'spectator' && state.game && !state.game.result ? t('game.watching') : '';
  if (state.hintAsked !== null) return t('game.hint.asking');
  if (state.hint) {
    return state.hint.endTurn ? t('game.hint.endTurn') : t('game.hint.step', { from: state.hint.from, to: state.hint.to });
  }
  if (state.game.chain) return t('game.hint.chain');
  switch (mode(state)) {
    case Mode.Choosing: return t(touch ? 'game.hint.chooseLine' : 'game.hint.chooseLineClick');
    case Mode.Selected: return t('game.hint.selected');
    default: return mustCapture(state) ? t('game.hint.mustCapture') : t('game.hint.move');
  }
}

/**
 * The headline of a finished game.
 * @param {object} state
 * @param {Translate} t
 */
export function resultTitle(state, t) {
  const r = state.game.result;
  if (!r.winner) return t('result.draw');
  if (isPlayer(state) && r.winner === state.role) return t('result.you');
  if (state.game.computer && r.winner === state.game.computer.color) return t('result.computer');
  if (isPlayer(state)) return t('result.they');
  return t('result.win', { color: t(`color.${r.winner}`) });
}

function renderMoves(els, state, t) {
  const g = state.game;
  const moves = g ? g.moves : [];
  const list = els.moves;
  // The list follows the game while it is scrolled to its end: a player
  // who scrolled back keeps their place.
  const following = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  const doc = list.ownerDocument;
  let partial = list.querySelector('.partial');
  partial?.remove();
  while (list.children.length > moves.length) list.lastElementChild.remove();
  for (let i = 0; i < moves.length; i++) {
    let li = list.children[i];
    if (!li) {
      li = doc.createElement('li');
      const b = doc.createElement('button');
      b.type = 'button';
      b.className = 'move';
      b.dataset.ply = String(i + 1);
      li.append(b);
      list.append(li);
    }
    const b = li.firstElementChild;
    setText(b, moves[i]);
    b.classList.toggle('white-move', sideOfTurn(state.game, i) === 'white');
    const shown = state.browse === null ? state.plies.length - 1 : state.browse;
    const current = i + 1 === shown;
    b.classList.toggle('current', current);
    if (current) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  }
  // The turn a capture chain is playing, as it grows.
  if (g && g.chain) {
    if (!partial) {
      partial = doc.createElement('li');
      partial.className = 'partial';
      partial.innerHTML = '<span class="move"></span><span class="visually-hidden"></span>';
    }
    setText(partial.firstChild, g.chain.notation);
    setText(partial.lastChild, t('game.inProgress'));
    list.append(partial);
  }
  // Browsing keeps the turn shown in view; back to the game, the list
  // follows again.
  const ply = state.browse ?? '';
  if (ply === '' && (following || list.dataset.at)) list.scrollTop = list.scrollHeight;
  else if (ply && String(ply) !== list.dataset.at) {
    // Within the list only: the page stays where it is.
    const box = list.getBoundingClientRect();
    const item = list.children[ply - 1].getBoundingClientRect();
    list.scrollTop += Math.min(0, item.top - box.top) + Math.max(0, item.bottom - box.bottom);
  }
  list.dataset.at = ply;
  show(els.noMoves, moves.length === 0);
  const last = state.plies.length - 1;
  const at = state.browse === null ? last : state.browse;
  els.histFirst.disabled = els.histPrev.disabled = at <= 0;
  els.histNext.disabled = els.histLast.disabled = state.browse === null;
  show(els.viewing, state.browse !== null);
  if (state.browse !== null) setText(els.viewing.firstElementChild, t('game.viewing', { n: state.browse, total: last }));
}

/**
 * The tab's title, first what needs a seated player ("Your turn ·
 * Fanorona game"), and whether the icon has a dot; else the plain title.
 * @param {import('./types.js').ViewState} state
 * @param {boolean} joined the friend has just joined (no move since)
 * @param {Translate} t
 * @returns {{title: string, dot: boolean}}
 */
export function tabTitle(state, joined, t) {
  const g = state.game;
  const plain = t('game.doctitle');
  const key = !g || g.result || !isPlayer(state) ? ''
    : g.drawOffer && g.drawOffer !== state.role ? 'game.tabDraw'
      : joined ? 'game.tabJoined' : isMyTurn(state) ? 'game.yourTurn' : '';
  return { title: key ? `${t(key)} · ${plain}` : plain, dot: Boolean(key) };
}

/**
 * Brings the panel up to date.
 * @param {ReturnType<typeof panelElements>} els
 * @param {import('./types.js').ViewState} state
 * @param {Translate} t
 */
export function renderPanel(els, state, t) {
  show(els.game, !state.notFound);
  show(els.notFound, state.notFound);
  setText(els.heading, pageHeading(state, t));
  const waiting = waitingForFriend(state);
  show(els.invite, waiting);
  show(els.inviteShare, waiting && Boolean(state.inviteLink));
  show(els.inviteElsewhere, waiting && !state.inviteLink);
  const bottom = bottomColor(state);
  renderPlayer(els.bottom, bottom, state, t);
  renderPlayer(els.top, other(bottom), state, t);
  const series = seriesLine(state, t);
  setText(els.series, series);
  show(els.series, series !== '');
  const turn = turnLine(state, t);
  setText(els.turn, turn);
  show(els.turn, turn !== '');
  els.turn.classList.toggle('mine', isMyTurn(state));
  setText(els.hint, hintLine(state, t, els.touch));
  els.hint.classList.toggle('error', Boolean(state.notice && state.notice.error));
  const g = state.game;
  const quiet = g ? g.turnsSinceCapture : 0;
  setText(els.quiet, quiet > 0 && !(g && g.result)
    ? (quiet >= 40 ? t('game.quietSoon', { count: FIFTY - quiet }) : t('game.quiet', { count: quiet }))
    : '');
  els.quiet.classList.toggle('warning', quiet >= 40);
  show(els.endTurn, Boolean(canAct(state) && g.canEndTurn));
  show(els.result, Boolean(g && g.result));
  if (g && g.result) {
    setText(els.result.querySelector('.result-title'), resultTitle(state, t));
    setText(els.result.querySelector('.result-reason'), t(`reason.${g.result.reason}`));
    const asked = isPlayer(state) && g.rematch[other(state.role)] && !g.rematch[state.role];
    setText(els.result.querySelector('.result-rematch'), asked ? t('game.rematchOffered') : '');
  }
  const playing = Boolean(g && !g.result && isPlayer(state) && !waiting);
  const computer = againstComputer(state);
  // Against the computer there is nobody to offer a draw or to leave.
  const offeredToMe = Boolean(playing && !computer && g.drawOffer && g.drawOffer !== state.role);
  show(els.offer, offeredToMe);
  // A refused offer stays said until the next move or offer.
  show(els.drawDeclined, Boolean(playing && !computer && !g.drawOffer && state.drawDeclinedAt === g.moves.length));
  show(els.claim, claimable(state));
  // Nothing to offer, save or copy before the first move.
  const begun = Boolean(g && g.moves.length);
  show(els.offerDraw, playing && begun && !computer && !offeredToMe && !state.resignConfirm);
  els.offerDraw.disabled = Boolean(g && g.drawOffer === state.role);
  setText(els.offerDraw, t(g && g.drawOffer === state.role ? 'game.drawOffered' : 'game.offerDraw'));
  // Between friends a turn is taken back when the other allows it.
  const asked = Boolean(g && g.takebackOffer === state.role);
  const askedMe = Boolean(playing && !computer && g.takebackOffer && !asked);
  show(els.takebackOffer, askedMe);
  show(els.askTakeback, playing && !computer && !g.clock && !askedMe && !state.resignConfirm && hasCompletedTurn(state));
  els.askTakeback.disabled = asked;
  setText(els.askTakeback, t(asked ? 'game.takebackAsked' : 'game.askTakeback'));
  show(els.resign, playing && !state.resignConfirm);
  show(els.resignConfirm, playing && state.resignConfirm);
  const finished = Boolean(g && g.result && isPlayer(state));
  show(els.rematch, finished);
  // Anyone may start another game once this one is over, and save or
  // copy its record at any time once it has begun.
  show(els.newGame, Boolean(g && g.result));
  show(els.record, begun && !waiting);
  // Once the game is over, its review and the analysis board open at the
  // turn shown: never while it is played.
  const reviewable = Boolean(g && g.result && g.moves.length);
  show(els.review, reviewable);
  show(els.analyse, reviewable);
  if (reviewable) {
    const query = new URLSearchParams({ start: g.startPosition, turns: g.moves.join(' '), at: state.browse ?? g.moves.length });
    const shown = state.browse === null ? g.position : positionText(state.plies[state.browse]);
    setHref(els.review, `/review?${query}`);
    setHref(els.analyse, `/analysis?${new URLSearchParams({ position: shown })}`);
  }
  const askedRematch = Boolean(finished && g.rematch[state.role]);
  els.rematch.disabled = askedRematch;
  setText(els.rematch, t(askedRematch ? 'game.rematchAsked' : computer ? 'game.playAgain' : 'game.rematch'));
  renderComputerActions(els, state, t);
  setText(els.sound, t(state.soundOn ? 'game.soundOn' : 'game.soundOff'));
  els.sound.setAttribute('aria-pressed', String(state.soundOn));
  show(els.seat, Boolean(state.seatLink));
  if (state.seatLink && els.seatLink.value !== state.seatLink) els.seatLink.value = state.seatLink;
  renderMoves(els, state, t);
}

function renderComputerActions(els, state, t) {
  const mine = againstComputer(state) && isPlayer(state);
  const over = Boolean(mine && state.game.result);
  // After the end, no hint; a takeback, if any, says that the game goes on.
  show(els.computerActions, mine && (!over || canTakeBack(state)));
  show(els.levelChoice, mine);
  if (!mine) return;
  show(els.askHint, !over);
  setText(els.takeback, t(over ? 'game.takebackPlayOn' : 'game.takeback'));
  els.takeback.disabled = !canTakeBack(state);
  els.askHint.disabled = !canAskHint(state);
  els.endTurn.classList.toggle('hinted', Boolean(state.hint && state.hint.endTurn && canAct(state)));
  const level = String(shownLevel(state));
  if (els.level.value !== level) els.level.value = level;
}

/**
 * Whether this player may claim the win: the server says the opponent,
 * who is to move, has been away long enough (`abandoned`).
 * @param {import('./types.js').ViewState} state
 */
export function claimable(state) {
  const g = state.game;
  if (!g || g.result || !isPlayer(state) || g.computer) return false;
  return g.abandoned && g.turn !== state.role;
}

export { EndReason };
