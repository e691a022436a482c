// The invitation page. The server has filled in who invites and which
// colour the visitor plays; opening the page took nothing. The seat is
// taken only by the Join button, whose request carries this tab's join
// key, so pressing it again after a lost answer gets the same seat.

import { pageTranslator, keepPlace } from './i18n.js';
import { joinRequest, readJoined, readError, gamePath, gameFromLocation, inviteFromLocation } from './protocol.js';
import { joinKeyFor } from './join.js';
import { updateGames, recordGame, localStore } from './games.js';

const t = pageTranslator(document);
keepPlace(document, location);

const $ = (id) => document.getElementById(id);
const button = $('join');
const failure = $('join-error');
const id = gameFromLocation(location);
const invite = inviteFromLocation(location);
/** The errors that say the link seats nobody now, whoever tries. */
const CLOSED = ['wrong_invite', 'invitation_expired', 'game_not_found'];

function sessionStore() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function fail(text) {
  failure.textContent = text;
  failure.hidden = false;
  button.disabled = false;
  button.textContent = t('invite.join');
}

async function join() {
  if (!id || !invite) {
    location.replace(id ? gamePath(id) : '/');
    return;
  }
  button.disabled = true;
  button.textContent = t('invite.joining');
  failure.hidden = true;
  const key = joinKeyFor(sessionStore(), id, (bytes) => crypto.getRandomValues(bytes));
  let res;
  let body;
  try {
    const { url, init } = joinRequest(id, invite, key);
    res = await fetch(url, init);
    body = await res.json();
  } catch {
    fail(t('invite.failed'));
    return;
  }
  const joined = res.ok ? readJoined(body) : null;
  const error = joined ? null : readError(body);
  // Someone else took the seat while this page was open, or the
  // invitation no longer holds: the server's page for this link says
  // which, and how to watch.
  if ((joined && joined.role === 'spectator') || (error && CLOSED.includes(error.code))) {
    location.replace(location.href);
    return;
  }
  if (!joined) {
    const text = error ? t(`error.${error.code}`) : '';
    fail(error && text !== `error.${error.code}` ? text : t('invite.failed'));
    return;
  }
  updateGames(localStore(window), (list) => recordGame(list, {
    id, color: joined.role, joined: true, lastActive: Date.now(), invite: null,
  }));
  location.replace(gamePath(id));
}

button.addEventListener('click', join);
