// The clocks of a timed game: the server sends both as they stand when it
// publishes a state; between states the page counts the running one down
// from the moment the state arrived. The server decides a loss on time by
// itself; the page only shows it, and claims it if no word comes.

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/**
 * The time each side has left at `now`, for a clock received at
 * `received` (both from the same monotonic clock, in milliseconds).
 * @param {NonNullable<import('./protocol.js').GameState['clock']>} clock
 * @param {number} received
 * @param {number} now
 * @returns {{white: number, black: number}}
 */
export function timesAt(clock, received, now) {
  const left = { white: clock.white, black: clock.black };
  if (clock.running) left[clock.running] = Math.max(0, left[clock.running] - (now - received));
  return left;
}

const two = (n) => String(n).padStart(2, '0');

/**
 * A clock as a player reads it: "4:59", "0:09.3" under ten seconds,
 * "1:02:03" from an hour, and by correspondence "2 d 5 h" from a day.
 * @param {number} ms
 * @param {{real: boolean}} clock
 * @param {(key: string, params?: object) => string} t
 */
export function clockText(ms, clock, t) {
  if (!clock.real && ms >= DAY) {
    return t('clock.dh', { d: Math.floor(ms / DAY), h: Math.floor((ms % DAY) / HOUR) });
  }
  const s = Math.floor(ms / SECOND);
  if (ms < 10 * SECOND) return `0:0${s}.${Math.floor((ms % SECOND) / 100)}`;
  const hm = s >= 3600 ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}` : `${Math.floor(s / 60)}`;
  return `${hm}:${two(s % 60)}`;
}

/**
 * Whether a clock is low: 20 seconds in real time, two hours by
 * correspondence.
 * @param {number} ms
 * @param {{real: boolean}} clock
 */
export function isLow(ms, clock) {
  return ms <= (clock.real ? 20 * SECOND : 2 * HOUR);
}

/**
 * Shows the clocks in the players' rows and keeps the running one going.
 * @param {{top: HTMLElement, bottom: HTMLElement}} spans the clock of each row
 * @param {{t: (key: string, params?: object) => string, now: () => number,
 *   onZero: (color: 'white'|'black') => void, onLow: () => void}} hooks
 *   `onZero` once a running clock shows zero; `onLow` once a turn when the
 *   player's own clock turns low
 */
export function bindClocks(spans, { t, now, onZero, onLow }) {
  let shown = null;
  let timer = 0;
  let lowSaid = false;
  let zeroSaid = false;
  function tick() {
    if (!shown) return;
    const { clock, received, bottom, role } = shown;
    const left = timesAt(clock, received, now());
    for (const [row, color] of [['bottom', bottom], ['top', bottom === 'white' ? 'black' : 'white']]) {
      const span = spans[row];
      span.textContent = clockText(left[color], clock, t);
      span.setAttribute('aria-label', t('clock.of', { color: t(`color.${color}`) }));
      span.classList.toggle('running', clock.running === color);
      span.classList.toggle('low', isLow(left[color], clock));
    }
    const running = clock.running;
    if (running === role && isLow(left[running], clock) && !lowSaid) {
      lowSaid = true;
      onLow();
    }
    if (running && left[running] === 0 && !zeroSaid) {
      zeroSaid = true;
      onZero(running);
    }
  }
  return {
    /**
     * Shows `game`'s clocks as received at `received`, with `bottom` the
     * colour of the lower row and `role` the viewer's.
     * @param {import('./protocol.js').GameState|null} game
     * @param {number} received
     * @param {'white'|'black'} bottom
     * @param {string|null} role
     */
    show(game, received, bottom, role) {
      const clock = game && game.clock;
      for (const span of [spans.top, spans.bottom]) span.hidden = !clock;
      clearInterval(timer);
      if (shown && clock && shown.clock.running !== clock.running) {
        lowSaid = false;
        zeroSaid = false;
      }
      shown = clock ? { clock, received, bottom, role } : null;
      tick();
      if (clock && clock.running) timer = setInterval(tick, 100);
    },
  };
}
