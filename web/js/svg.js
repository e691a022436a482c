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
