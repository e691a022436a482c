// The style sheets take their sizes from the scales site.css defines once
// in :root: a font size is a step of the type scale, a margin, padding or
// gap a step of the spacing scale, and a font one of the three stacks.
// The few exceptions are listed here with their reason.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const WEB = new URL('../../', import.meta.url);
const SHEETS = ['css/site.css', 'css/board.css'];

// Declarations allowed outside the scales, by sheet.
const EXCEPTIONS = {
  // The usual way to hide a text from the eyes only.
  'css/site.css': (d) => ['margin: -1px', 'font-size: 0'].includes(d),
  // Text on the board (its coordinates) is sized in the board picture's
  // own units, so it grows and shrinks with the board.
  'css/board.css': (d) => /^font(?:-size)?: (?:\d{3} )?\d+px(?: var\(--font-ui\))?$/.test(d),
};

/**
 * The declarations of a style sheet, as [sheet, "property: value"]; the
 * blocks that define the scales (custom properties) are left out.
 * @param {string} css
 * @returns {Array<[string, string]>}
 */
export function declarations(css) {
  const out = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const [, block] of text.matchAll(/\{([^{}]*)\}/g)) {
    if (/--(?:text|space)-/.test(block.replace(/var\(--[a-z0-9-]+\)/g, ''))) continue;
    for (const part of block.split(';')) {
      const m = /^\s*([a-z-]+)\s*:\s*([\s\S]+?)\s*$/.exec(part);
      if (m) out.push([m[1], m[2].replace(/\s+/g, ' ')]);
    }
  }
  return out;
}

const SPACING = /^(?:margin|padding|gap|row-gap|column-gap)(?:-[a-z]+)*$/;
// A spacing value: each part 0, auto, a step, or a fraction of the text's
// own size (em, for marks drawn beside a letter).
const SPACE_PART = /^(?:0|auto|var\(--space-[1-7]\)|calc\(-1\*var\(--space-[1-7]\)\)|-?\d*\.?\d+em)$/;

/**
 * Why a declaration leaves the scales, or null when it keeps to them.
 * @param {string} property
 * @param {string} value
 * @returns {string|null}
 */
export function offScale(property, value) {
  const parts = value.replace(/calc\(\s*-1\s*\*\s*/g, 'calc(-1*').split(' ');
  if (SPACING.test(property) && !parts.every((part) => SPACE_PART.test(part))) {
    return 'a space off the spacing scale';
  }
  if (property === 'font-size' && !/^(?:var\(--text-[a-z0-9]+\)|inherit)$/.test(value)) {
    return 'a size off the type scale';
  }
  if (property === 'font' && value !== 'inherit'
    && !/^(?:\d{3} )?var\(--text-[a-z0-9]+\)(?:\/[\d.]+)? var\(--font-(?:ui|display|mono)\)$/.test(value)) {
    return 'a font off the scale or the stacks';
  }
  if (property === 'font-family' && !/^var\(--font-(?:ui|display|mono)\)$/.test(value)) {
    return 'a font other than the three stacks';
  }
  return null;
}

test('a size or font off the scales is caught', () => {
  assert.equal(offScale('margin', '0 auto'), null);
  assert.equal(offScale('padding', 'var(--space-2) var(--space-4)'), null);
  assert.equal(offScale('margin', '0 0.6em 0.2em 0.1em'), null);
  assert.equal(offScale('margin', '0 calc(-1 * var(--space-4))'), null);
  assert.equal(offScale('font', '800 var(--text-lg) var(--font-display)'), null);
  assert.equal(offScale('font', 'var(--text-sm)/1.5 var(--font-mono)'), null);
  assert.match(offScale('margin-top', '1.2rem'), /spacing/);
  assert.match(offScale('margin', '0 -1rem'), /spacing/);
  assert.match(offScale('gap', 'var(--space-2) 10px'), /spacing/);
  assert.match(offScale('padding-inline', 'var(--space-9)'), /spacing/);
  assert.match(offScale('font-size', '1.1rem'), /type scale/);
  assert.match(offScale('font', '0.95rem ui-monospace, monospace'), /font/);
  assert.match(offScale('font-family', 'Georgia, serif'), /stacks/);
  assert.equal(EXCEPTIONS['css/board.css']('font-size: 23px'), true);
  assert.equal(EXCEPTIONS['css/board.css']('font-size: 1.1rem'), false);
  assert.equal(EXCEPTIONS['css/site.css']('font-size: 23px'), false);
  assert.deepEqual(declarations(':root { --space-1: 0.25rem; margin: 3px } .a { gap: 1px; b: c }'),
    [['gap', '1px'], ['b', 'c']]);
});

test('every size and font of the style sheets comes from the scales', () => {
  const off = [];
  let checked = 0;
  for (const sheet of SHEETS) {
    const css = readFileSync(new URL(sheet, WEB), 'utf8');
    for (const [property, value] of declarations(css)) {
      const why = offScale(property, value);
      if (why === null) {
        checked++;
      } else if (!EXCEPTIONS[sheet](`${property}: ${value}`)) {
        off.push(`${sheet}: ${property}: ${value} (${why})`);
      }
    }
  }
  assert.deepEqual(off, []);
  assert.ok(checked > 500, `only ${checked} declarations read`);
});

test('the scales are defined once, in site.css', () => {
  const site = readFileSync(new URL('css/site.css', WEB), 'utf8');
  for (const name of ['text-sm', 'text-base', 'text-lg', 'text-xl', 'text-2xl', 'space-1', 'space-7', 'font-ui', 'font-display', 'font-mono']) {
    assert.equal(site.match(new RegExp(`--${name}:`, 'g'))?.length, 1, `--${name} is defined once`);
  }
  const board = readFileSync(new URL('css/board.css', WEB), 'utf8');
  assert.doesNotMatch(board, /--(?:text|space|font)-[a-z0-9]+:/, 'board.css defines no scale of its own');
});
