// Static board pictures for the front page and the rules pages. Each
// element with data-position gets a drawing of that position; optional
// data-path ("d3 e3"), data-captured ("f3 g3") and data-bottom attributes
// add the path of a step and the stones it took. The drawing is the image
// a screen reader names: by the element's aria-label, which moves onto it,
// or else by its tag ("Before"), described by its figure's caption.

import { createBoard, renderBoard } from './render.js';
import { parsePosition } from './position.js';

const list = (s) => (s ? s.trim().split(/\s+/) : []);

let ids = 0;

// The id of an element, given one when it has none.
function idOf(node) {
  if (!node.id) node.id = `diagram-text-${++ids}`;
  return node.id;
}

// Names a drawing by the texts around it: by the tag just before it in
// its cell ("Before", "The start"), described by the caption of its
// figure, which both drawings of a pair share; by the caption alone when
// it has no tag.
function nameByCaption(svg, host) {
  const before = host.previousElementSibling;
  const tag = before && before.classList.contains('tag') ? before : null;
  const figure = host.closest('figure');
  const caption = figure && figure.querySelector('figcaption');
  const name = tag || caption;
  if (name) svg.setAttribute('aria-labelledby', idOf(name));
  if (tag && caption) svg.setAttribute('aria-describedby', idOf(caption));
}

/**
 * Draws every diagram under a root.
 * @param {ParentNode} root
 */
export function drawDiagrams(root) {
  // A board to try a rule on (data-try) is played, not drawn here.
  for (const host of root.querySelectorAll('[data-position]:not([data-try])')) {
    const pos = parsePosition(host.getAttribute('data-position'));
    if (!pos) continue;
    const dom = createBoard(host, {
      interactive: false,
      label: host.getAttribute('aria-label') || undefined,
      coordinates: host.hasAttribute('data-coords'),
    });
    // The wrapper is no longer the image: the drawing is.
    host.removeAttribute('aria-label');
    host.removeAttribute('role');
    if (!dom.svg.hasAttribute('aria-label')) nameByCaption(dom.svg, host);
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
