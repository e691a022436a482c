// Small helpers for building and updating SVG elements.

/** The SVG namespace. */
export const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Creates an SVG element with attributes, appended to a parent if given.
 * @param {string} name tag name
 * @param {Record<string, string|number>} [attrs]
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
export function el(name, attrs = {}, parent = undefined) {
  const node = document.createElementNS(SVG_NS, name);
  setAttrs(node, attrs);
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * Sets attributes, removing those whose value is null or undefined.
 * Only touches the DOM when a value changes.
 * @param {Element} node
 * @param {Record<string, string|number|null|undefined>} attrs
 */
export function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) {
      if (node.hasAttribute(key)) node.removeAttribute(key);
    } else if (node.getAttribute(key) !== String(value)) {
      node.setAttribute(key, String(value));
    }
  }
}

/**
 * Adds or removes a class only when it changes.
 * @param {Element} node
 * @param {string} name
 * @param {boolean} on
 */
export function toggle(node, name, on) {
  if (node.classList.contains(name) !== on) node.classList.toggle(name, on);
}

/**
 * A path through points: "M x y L x y ...".
 * @param {Array<{x: number, y: number}>} points
 * @returns {string}
 */
export function polyline(points) {
  return points.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join('');
}

const r1 = (v) => Math.round(v * 10) / 10;
const path = (ps) => polyline(ps.map((p) => ({ x: r1(p.x), y: r1(p.y) })));

/**
 * An arrow per step of a path: a line, then a head of length `size` whose
 * tip stops `gap` short of the step's end.
 * @param {Array<{x: number, y: number}>} points
 * @param {number} gap
 * @param {number} [size]
 * @returns {{lines: string, heads: string}} path data to stroke, and to fill
 */
export function arrows(points, gap, size = 22) {
  let lines = '';
  let heads = '';
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const u = (b.x - a.x) / len;
    const v = (b.y - a.y) / len;
    const tip = { x: b.x - u * gap, y: b.y - v * gap };
    const x = tip.x - u * size;
    const y = tip.y - v * size;
    lines += path([a, { x, y }]);
    heads += `${path([tip, { x: x - v * size / 2, y: y + u * size / 2 }, { x: x + v * size / 2, y: y - u * size / 2 }])}Z`;
  }
  return { lines, heads };
}
