// Static board pictures for the front page and the rules pages. Each
// element with data-position gets a drawing of that position; optional
// data-path ("d3 e3"), data-captured ("f3 g3") and data-bottom attributes
// add the path of a step and the stones it took.

import { createBoard, renderBoard } from './render.js';
import { parsePosition } from './position.js';

const list = (s) => (s ? s.trim().split(/\s+/) : []);

/**
 * Draws every diagram under a root.
 * @param {ParentNode} root
 */
export function drawDiagrams(root) {
  for (const host of root.querySelectorAll('[data-position]')) {
    const pos = parsePosition(host.getAttribute('data-position'));
    if (!pos) continue;
    const dom = createBoard(host, {
      interactive: false,
      label: host.getAttribute('aria-label') || undefined,
      coordinates: host.hasAttribute('data-coords'),
    });
    host.removeAttribute('aria-label');
    const path = list(host.getAttribute('data-path'));
    renderBoard(dom, {
      board: pos.board,
      bottom: host.getAttribute('data-bottom') === 'black' ? 'black' : 'white',
      path,
      captured: list(host.getAttribute('data-captured')),
      chain: false,
      movable: [],
      selected: null,
      targets: new Map(),
      threatened: new Set(list(host.getAttribute('data-threatened'))),
      preview: new Set(),
      choice: null,
      choiceTo: null,
    });
  }
}
