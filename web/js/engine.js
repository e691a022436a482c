// The page's side of the engine in the browser (engine-worker.js): starts
// the worker when first asked, sends it searches one at a time, reads its
// lines, and stops a search by ending the worker (the next search starts
// a new one, which loads the module from the browser's cache and the
// endgame tables from the copy the first worker handed over).

/**
 * @typedef {{kind: 'cp', value: number} | {kind: 'win' | 'loss', value: number} | {kind: 'won' | 'lost'}} Score
 * @typedef {{depth: number, seldepth: number, score: Score, nodes: number, pv: string[], ms: number}} Line
 */

/**
 * Reads an `info` line of `fanorona analyse`:
 * `info depth 3 seldepth 7 score cp 35 nodes 1200 [nps N time MS] pv d3-e3A f4-f3A`.
 * @param {string} text
 * @returns {Omit<Line, 'ms'> | null} null when the line is not an info line
 */
export function parseInfo(text) {
  const words = String(text).trim().split(/\s+/);
  if (words[0] !== 'info') return null;
  const line = { depth: 0, seldepth: 0, score: null, nodes: 0, pv: [] };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === 'pv') {
      line.pv = words.slice(i + 1);
      break;
    }
    if (word === 'score') {
      const kind = words[++i];
      if (kind === 'cp' || kind === 'win' || kind === 'loss') line.score = { kind, value: Number(words[++i]) };
      else if (kind === 'won' || kind === 'lost') line.score = { kind };
      else return null;
    } else if (word in line || word === 'nps' || word === 'time') {
      const value = Number(words[++i]);
      if (!Number.isFinite(value)) return null;
      if (word in line) line[word] = value;
    }
  }
  return line.score && line.depth > 0 ? line : null;
}

/**
 * The score from White's side, in stones where it is a value: `+0.38`,
 * `−1.20`; a won or lost game as the side that wins, with the turns to go
 * where known. `white` says whether White is to move.
 * @param {Score} score
 * @param {boolean} white
 * @returns {{stones: number | null, winner: 'white' | 'black' | null, turns: number | null}}
 */
export function whiteScore(score, white) {
  const sign = white ? 1 : -1;
  if (score.kind === 'cp') return { stones: (sign * score.value) / 100, winner: null, turns: null };
  const moverWins = score.kind === 'win' || score.kind === 'won';
  const winner = (moverWins === white) ? 'white' : 'black';
  return { stones: null, winner, turns: 'value' in score ? score.value : null };
}

/**
 * Stones as a reader says them, signed, to two places: `+0.38`, `−1.20`, `0.00`.
 * @param {number} stones
 * @returns {string}
 */
export function signedStones(stones) {
  const sign = stones > 0 ? '+' : stones < 0 ? '−' : '';
  return `${sign}${Math.abs(stones).toFixed(2)}`;
}

/** The engine in a worker, one search at a time. */
export class Engine {
  /** @param {{workerUrl?: string, tables?: number}} [options] */
  constructor(options = {}) {
    this.workerUrl = options.workerUrl || '/js/engine-worker.js';
    this.tables = options.tables ?? 4;
    this.worker = null;
    this.ready = null;
    this.pending = null;
    this.next = 1;
    /** What the last load measured: {loadMs, tablesMs, tableBytes, tablesRead}. */
    this.loaded = null;
    /** The tables as the first worker built them, for the workers after it. */
    this.tableData = null;
  }

  start() {
    if (this.worker) return;
    this.worker = new Worker(this.workerUrl, { type: 'module' });
    let readied;
    this.ready = new Promise((resolve) => { readied = resolve; });
    this.worker.onmessage = (event) => this.receive(event.data, readied);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(new Error(event.message || 'the engine could not start'));
    };
    // Each worker gets its own copy: the page keeps one for the next.
    const tableData = this.tableData ? this.tableData.slice(0) : undefined;
    this.worker.postMessage({ type: 'load', tables: this.tables, tableData }, tableData ? [tableData] : []);
  }

  receive(message, readied) {
    if (message.type === 'ready') {
      this.loaded = {
        loadMs: message.loadMs, tablesMs: message.tablesMs, tableBytes: message.tableBytes, tablesRead: message.tablesRead,
      };
      if (message.tableData) this.tableData = message.tableData;
      readied(this.loaded);
      return;
    }
    const search = this.pending;
    if (message.type === 'failed') {
      this.fail(new Error(message.message));
      return;
    }
    if (!search || message.id !== search.id) return;
    if (message.type === 'line') {
      const line = parseInfo(message.line);
      if (line) {
        line.ms = message.ms;
        search.lines.push(line);
        search.onLine(line);
      }
    } else if (message.type === 'done') {
      this.pending = null;
      const text = message.line;
      if (text.startsWith('error ')) {
        search.reject(new Error(text.slice(6)));
        return;
      }
      const best = /(?:^|\n)bestturn (\S+)$/.exec(text);
      const result = /(?:^|\n)result (.+)/.exec(text);
      const nodes = /(?:^|\n)nodes (\d+)/.exec(text);
      search.resolve({
        best: best && best[1] !== 'none' ? best[1] : null,
        result: result ? result[1] : null,
        nodes: nodes ? Number(nodes[1]) : 0,
        lines: search.lines,
        ms: message.ms,
      });
    }
  }

  fail(error) {
    const search = this.pending;
    this.pending = null;
    this.stop();
    if (search) search.reject(error);
  }

  /**
   * Searches `position` (position text) within `nodes` and `depth` (0 for
   * no limit; one of them is needed), calling `onLine` for each completed
   * depth. A search asked while another runs stops that one first.
   * @param {string} position
   * @param {{nodes?: number, depth?: number}} limits
   * @param {(line: Line) => void} [onLine]
   * @returns {Promise<{best: string | null, result: string | null, nodes: number, lines: Line[], ms: number | null, stopped?: boolean}>}
   */
  analyse(position, limits, onLine = () => {}) {
    if (this.pending) this.stop();
    this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onLine, lines: [] };
      this.worker.postMessage({
        type: 'analyse', id, position, nodes: limits.nodes || 0, depth: limits.depth || 0,
      });
    });
  }

  /**
   * Stops the search under way, if any: it resolves with what it found,
   * `stopped` set, the best turn the deepest line's first.
   */
  stop() {
    const search = this.pending;
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = null;
    this.pending = null;
    if (search) {
      const last = search.lines[search.lines.length - 1];
      search.resolve({
        best: last && last.pv.length ? last.pv[0] : null,
        result: null,
        nodes: last ? last.nodes : 0,
        lines: search.lines,
        ms: null,
        stopped: true,
      });
    }
  }
}
