// The WebSocket to the game: connects, reconnects with growing, jittered
// delays when the connection drops, and hands frames to the page. It knows
// nothing of the messages themselves (protocol.js does).

/** What the connection reports about itself. */
export const Status = Object.freeze({
  Connecting: 'connecting',
  Open: 'open',
  Reconnecting: 'reconnecting',
  // Closed by the server: it restarts (1012), its database does not answer (1013).
  Restarting: 'restarting',
  DatabaseUnavailable: 'database-unavailable',
  Closed: 'closed',
});

/** The close code a server sends when it shuts down to restart. */
const SERVICE_RESTART = 1012;

/** The close code a server sends when it cannot read the game: "try again later". */
const TRY_AGAIN_LATER = 1013;

/**
 * What a close code says of why the socket closed, while reconnecting:
 * the server's own reason, or an ordinary drop.
 * @param {number|undefined} code
 * @returns {string} one of Status
 */
export function retryStatus(code) {
  if (code === SERVICE_RESTART) return Status.Restarting;
  if (code === TRY_AGAIN_LATER) return Status.DatabaseUnavailable;
  return Status.Reconnecting;
}

/**
 * The wait before reconnect attempt `attempt` (0-based): doubling from
 * half a second to a cap, with jitter so browsers do not all return at once.
 * @param {number} attempt
 * @param {number} random a number in [0, 1)
 * @param {{base?: number, cap?: number}} [opts]
 * @returns {number} milliseconds
 */
export function backoffDelay(attempt, random, { base = 500, cap = 15000 } = {}) {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/**
 * Opens a connection that keeps itself open until closed.
 * @param {object} opts
 * @param {string} opts.url
 * @param {(text: string) => void} opts.onMessage
 * @param {(status: string) => void} opts.onStatus
 * @param {typeof WebSocket} [opts.WebSocket]
 * @param {(fn: () => void, ms: number) => unknown} [opts.setTimeout]
 * @param {(id: unknown) => void} [opts.clearTimeout]
 * @param {() => number} [opts.random]
 * @param {EventTarget} [opts.window] for the browser's online and visibility events
 * @returns {{send: (text: string) => boolean, close: () => void, retryNow: () => void}}
 */
export function connect(opts) {
  const Ws = opts.WebSocket || globalThis.WebSocket;
  const later = opts.setTimeout || ((fn, ms) => globalThis.setTimeout(fn, ms));
  const cancelLater = opts.clearTimeout || ((id) => globalThis.clearTimeout(id));
  const random = opts.random || Math.random;
  let socket = null;
  let attempt = 0;
  let timer = null;
  let closed = false;
  // Why the server closed the last socket, until one opens again: an
  // ordinary drop on the way says nothing new.
  let reason = Status.Reconnecting;

  const retrying = () => reason;

  const open = () => {
    timer = null;
    if (closed) return;
    opts.onStatus(attempt === 0 ? Status.Connecting : retrying());
    let ws;
    try {
      ws = new Ws(opts.url);
    } catch {
      schedule();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      reason = Status.Reconnecting;
      opts.onStatus(Status.Open);
    };
    ws.onmessage = (e) => {
      if (typeof e.data === 'string') opts.onMessage(e.data);
    };
    ws.onclose = (e) => {
      if (socket !== ws) return;
      socket = null;
      const said = retryStatus(e && e.code);
      if (said !== Status.Reconnecting) reason = said;
      if (!closed) schedule();
    };
    ws.onerror = () => {};
  };

  const schedule = () => {
    if (closed || timer !== null) return;
    opts.onStatus(retrying());
    timer = later(open, backoffDelay(attempt, random()));
    attempt += 1;
  };

  const retryNow = () => {
    if (closed || socket) return;
    if (timer !== null) cancelLater(timer);
    timer = null;
    open();
  };

  const win = opts.window;
  const doc = win && win.document;
  const onVisible = () => {
    if (doc.visibilityState === 'visible') retryNow();
  };
  if (win) win.addEventListener('online', retryNow);
  if (doc) doc.addEventListener('visibilitychange', onVisible);

  open();

  return {
    send(text) {
      if (!socket || socket.readyState !== 1) return false;
      socket.send(text);
      return true;
    },
    close() {
      closed = true;
      if (timer !== null) cancelLater(timer);
      if (win) win.removeEventListener('online', retryNow);
      if (doc) doc.removeEventListener('visibilitychange', onVisible);
      if (socket) socket.close(1000);
      socket = null;
      opts.onStatus(Status.Closed);
    },
    retryNow,
  };
}
