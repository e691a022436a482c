// An accessibility audit of the page as it is now, with axe-core: every
// rule axe runs by default (WCAG A and AA, and its best practices), and
// any violation, whatever its impact, fails with a list a person can act
// on: the rule, its impact, where (CSS selectors) and axe's help text.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Puts axe into the page unless it is there. The pages forbid inline
 * scripts (Content-Security-Policy), so a <script> tag would be refused;
 * a script evaluated through the browser's debugging protocol is not.
 * @param {import('playwright-core').Page} page
 */
async function inject(page) {
  if (await page.evaluate(() => typeof window.axe === 'object')) return;
  await page.evaluate(AXE);
  assert.ok(await page.evaluate(() => typeof window.axe === 'object'), 'axe-core did not load into the page');
}

/**
 * The violations as readable lines: rule id, impact, help text and link,
 * then each offending element's selector and what axe says is wrong.
 * @param {object[]} violations from axe.run
 * @returns {string}
 */
export function describeViolations(violations) {
  return violations.map((v) => {
    const nodes = v.nodes.map((n) => {
      const why = (n.failureSummary || '').split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
      return `    ${n.target.join(' >> ')}${why ? `\n      ${why}` : ''}`;
    });
    return `- ${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help}\n  ${v.helpUrl}\n${nodes.join('\n')}`;
  }).join('\n');
}

/**
 * Runs axe on the page and fails on any violation of any impact.
 * @param {import('playwright-core').Page} page
 * @param {string} what names the page and state in the failure
 * @param {{disable?: Record<string, string>}} [options] rules to skip,
 *   each with the written reason why (an empty reason is refused)
 * @returns {Promise<object[]>} the violations (none, when it returns)
 */
export async function audit(page, what, options = {}) {
  const disable = options.disable || {};
  for (const [rule, reason] of Object.entries(disable)) {
    assert.ok(typeof reason === 'string' && reason.trim().length > 10, `rule ${rule} is disabled without a reason`);
  }
  await inject(page);
  const rules = Object.fromEntries(Object.keys(disable).map((id) => [id, { enabled: false }]));
  const result = await page.evaluate((r) => window.axe.run(document, { rules: r, resultTypes: ['violations'] }), rules);
  const { violations } = result;
  if (violations.length) {
    assert.fail(`axe found ${violations.length} kind(s) of violation on ${what}:\n${describeViolations(violations)}`);
  }
  return violations;
}

// The browser's own accessibility tree, as a screen reader gets it.
async function axNode(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Accessibility.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  assert.ok(nodeId, `${selector} is not in the page`);
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  return { cdp, node: nodes[0] };
}

/**
 * The accessible name and description the browser computes for an
 * element (CSS generated text included), as a screen reader announces
 * them.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @returns {Promise<{name: string, description: string}>}
 */
export async function accessible(page, selector) {
  const { cdp, node } = await axNode(page, selector);
  await cdp.detach();
  return { name: node.name ? node.name.value : '', description: node.description ? node.description.value : '' };
}

/**
 * The text a screen reader reads inside an element, piece by piece, from
 * the browser's accessibility tree (CSS generated text included).
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @returns {Promise<string>}
 */
export async function spokenText(page, selector) {
  const { cdp, node } = await axNode(page, selector);
  const parts = [];
  const walk = async (n, top = false) => {
    // An ignored node's children are listed again under its parent.
    if (n.ignored && !top) return;
    if (n.role && n.role.value === 'StaticText') {
      parts.push(n.name.value);
      return;
    }
    const { nodes } = await cdp.send('Accessibility.getChildAXNodes', { id: n.nodeId });
    for (const child of nodes) await walk(child);
  };
  await walk(node, true);
  await cdp.detach();
  return parts.join(' ');
}
