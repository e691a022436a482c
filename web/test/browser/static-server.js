// A tiny static server for the browser tests: serves web/ the way the game
// server will (/ -> index.html, /g/{id} -> game.html, /rules, /which-rules)
// on a free port, with a strict Content-Security-Policy so that any inline
// script or style would show up as a console error. Nothing else.

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Maps a request path to a file under web/, or null. */
export function fileFor(pathname) {
  if (pathname === '/') return 'index.html';
  if (/^\/g\/[A-Za-z0-9_-]+\/?$/.test(pathname)) return 'game.html';
  if (pathname === '/rules') return 'rules.html';
  if (pathname === '/which-rules') return 'which-rules.html';
  const rel = normalize(decodeURIComponent(pathname)).replace(/^\/+/, '');
  if (rel.startsWith('..') || rel.startsWith('test/')) return null;
  return rel;
}

/**
 * Starts the server on 127.0.0.1 and a free port.
 * @param {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean} [extra]
 *   a handler tried first (for faking API answers); returns true when it answered
 * @returns {Promise<{url: string, close: () => Promise<void>}>}
 */
export async function startStaticServer(extra) {
  const server = createServer(async (req, res) => {
    if (extra && extra(req, res)) return;
    const { pathname } = new URL(req.url, 'http://localhost');
    const rel = fileFor(pathname);
    try {
      if (!rel) throw new Error('outside');
      const body = await readFile(join(ROOT, rel));
      res.writeHead(200, {
        'content-type': TYPES[extname(rel)] || 'application/octet-stream',
        'content-security-policy': CSP,
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
