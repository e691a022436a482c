// The front page: play a friend or the computer. Against a friend: ask
// who moves first, create the game, then show the invitation (link, copy,
// share, QR code) and wait for the friend; when they arrive the page
// turns into the game by itself. Against the computer: ask its level and
// who moves first, and open the board at once. Below, the games this
// browser is in, so that closing a tab never loses one.

import { pageTranslator, pageLang, keepPlace } from './i18n.js';
import { drawDiagrams } from './diagram.js';
import { bindInvitation } from './invitation.js';
import { connect } from './connection.js';
import {
  createGameRequest, computerGameRequest, readCreated, readServerMessage, readError, socketUrl, gamePath,
} from './protocol.js';
import {
  loadGames, updateGames, recordGame, forgetGame, localStore,
} from './games.js';
import {
  loadOpponent, saveOpponent, loadLevel, saveLevel, Opponent,
} from './prefs.js';

const lang = pageLang(document);
const t = pageTranslator(document);
keepPlace(document, location);
drawDiagrams(document);

const $ = (id) => document.getElementById(id);
const form = $('start-form');
const startButton = $('start');
const storage = localStore(window);
const showLink = bindInvitation(document, t, navigator, lang);

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const data = new FormData(form);
  const first = data.get('first');
  startButton.disabled = true;
  startButton.textContent = t('home.starting');
  $('start-error').hidden = true;
  const { created } = await create(createGameRequest(String(first), String(data.get('clock') || '')));
  startButton.disabled = false;
  startButton.textContent = t('home.start');
  if (!created) {
    $('start-error').hidden = false;
    return;
  }
  updateGames(storage, (list) => recordGame(list, {
    id: created.id, color: created.color, joined: false, lastActive: Date.now(), invite: created.inviteLink,
  }));
  renderGames();
  showInvite(created);
});

/**
 * Sends a create request: the game the server made, or null and the
 * error code when it refused.
 * @param {{url: string, init: RequestInit}} request
 * @returns {Promise<{created: ReturnType<typeof readCreated>, code: string|null}>}
 */
async function create({ url, init }) {
  try {
    const res = await fetch(url, init);
    const body = await res.json().catch(() => null);
    if (!res.ok) return { created: null, code: readError(body).code };
    return { created: readCreated(body, location.origin), code: null };
  } catch {
    return { created: null, code: null };
  }
}

// The invitation takes the form's place; on a phone it also takes the
// picture's, so that the link, Copy and "Waiting for your friend…" fit
// the first screen. The focus goes to its heading, since the button
// that had it is gone.
function showInvite(created) {
  form.hidden = true;
  $('computer-form').hidden = true;
  document.querySelector('.opponents').hidden = true;
  document.querySelector('.home').classList.add('inviting');
  $('invite').hidden = false;
  $('to-board').href = gamePath(created.id);
  showLink(created.inviteLink);
  $('invite-heading').focus();
  waitForFriend(created);
}

// Watches the game as its creator (the create answer set the seat cookie,
// which the socket sends by itself); once the other seat is taken, opens
// the board.
function waitForFriend(created) {
  let role = null;
  const conn = connect({
    url: socketUrl(location, created.id),
    onStatus: () => {},
    onMessage: (text) => {
      const msg = readServerMessage(text);
      if (!msg) return;
      if (msg.type === 'welcome') role = msg.role;
      if (msg.type !== 'state' || (role !== 'white' && role !== 'black')) return;
      const friend = msg.state.players[role === 'white' ? 'black' : 'white'];
      if (friend.joined) {
        conn.close();
        updateGames(storage, (list) => recordGame(list, {
          id: created.id, color: role, joined: true, lastActive: Date.now(),
        }));
        $('waiting').textContent = t('home.arrived');
        location.assign(gamePath(created.id));
      }
    },
    window,
  });
}

// ---- against the computer ---------------------------------------------------

const computerForm = $('computer-form');
const playButton = $('play-computer');

function showOpponent(opponent) {
  form.hidden = opponent !== Opponent.Friend;
  computerForm.hidden = opponent !== Opponent.Computer;
}

for (const radio of document.querySelectorAll('input[name=opponent]')) {
  radio.addEventListener('change', () => {
    if (!radio.checked) return;
    saveOpponent(storage, radio.value);
    showOpponent(radio.value);
  });
}

{
  const opponent = loadOpponent(storage);
  const radio = document.querySelector(`input[name=opponent][value="${opponent}"]`);
  if (radio) radio.checked = true;
  showOpponent(opponent);
  const level = computerForm.querySelector(`input[name=level][value="${loadLevel(storage)}"]`);
  if (level) level.checked = true;
}

computerForm.addEventListener('change', (e) => {
  if (e.target.name === 'level') saveLevel(storage, Number(e.target.value));
});

computerForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const data = new FormData(computerForm);
  const level = Number(data.get('level'));
  saveLevel(storage, level);
  playButton.disabled = true;
  playButton.textContent = t('home.computer.starting');
  $('computer-error').hidden = true;
  const { created, code } = await create(computerGameRequest(level, String(data.get('computer-first'))));
  if (!created || !created.computer) {
    playButton.disabled = false;
    playButton.textContent = t('home.computer.play');
    // Too many searches waiting for the computer: say so, not "try again".
    $('computer-error').textContent = t(code === 'busy' ? 'error.busy' : 'home.startFailed');
    $('computer-error').hidden = false;
    return;
  }
  updateGames(storage, (list) => recordGame(list, {
    id: created.id, color: created.color, joined: true, lastActive: Date.now(), computer: created.computer.level,
  }));
  location.assign(gamePath(created.id));
});

// Back from the board, a page restored from the cache shows its button
// as it was left.
window.addEventListener('pageshow', () => {
  playButton.disabled = false;
  playButton.textContent = t('home.computer.play');
});

// ---- this browser's games ---------------------------------------------------

const when = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });

function gameItem(game) {
  const li = document.createElement('li');
  li.className = 'my-game';
  const link = document.createElement('a');
  link.href = gamePath(game.id);
  const swatch = document.createElement('span');
  swatch.className = `swatch ${game.color}`;
  swatch.setAttribute('aria-hidden', 'true');
  const what = document.createElement('span');
  what.className = 'what';
  what.textContent = game.computer
    ? t('home.games.vsComputer', { color: t(`color.${game.color}`), level: game.computer, name: t(`level.${game.computer}`) })
    : t('home.games.entry', { color: t(`color.${game.color}`) });
  const status = document.createElement('span');
  status.className = game.joined ? 'status' : 'status waiting-friend';
  status.textContent = t(game.joined ? 'home.games.playing' : 'home.games.waiting');
  const time = document.createElement('time');
  time.dateTime = new Date(game.lastActive).toISOString();
  time.textContent = when.format(game.lastActive);
  link.append(swatch, what, status, time);
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'icon-button remove';
  remove.dataset.game = game.id;
  remove.setAttribute('aria-label', t('home.games.removeLabel', { game: what.textContent, when: time.textContent }));
  remove.textContent = '×';
  li.append(link, remove);
  return li;
}

function renderGames() {
  const games = loadGames(storage);
  $('my-games').hidden = games.length === 0;
  $('games-list').replaceChildren(...games.map(gameItem));
}

$('games-list').addEventListener('click', (e) => {
  const button = e.target.closest('button.remove');
  if (!button) return;
  updateGames(storage, (list) => forgetGame(list, button.dataset.game));
  renderGames();
  if (!$('my-games').hidden) $('games-list').querySelector('a')?.focus();
});

renderGames();
