import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { expand, readPage } from '../pages.js';

const WEB = new URL('../../', import.meta.url);

test('every page comes out with the shared head and no include left', () => {
  const head = readPage('partials/head.html');
  const pages = readdirSync(WEB).filter((f) => f.endsWith('.html'));
  assert.ok(pages.length >= 6);
  for (const page of pages) {
    const html = readPage(page);
    assert.doesNotMatch(html, /<!-- include /, page);
    assert.ok(html.startsWith(`<!doctype html>\n<html lang="en">\n<head>\n${head}`), page);
    assert.match(html, /<header class="site-header">/, page);
  }
});

test('an include marks the current page and leaves a line it cannot fill', () => {
  const header = expand('<!-- include header current=/rules -->\n');
  assert.match(header, /<a href="\/rules" aria-current="page" data-i18n="nav.rules">/);
  assert.equal(header.match(/aria-current/g).length, 1);
  for (const line of ['<!-- include nothing -->\n', '<!-- include header current=/nowhere -->\n']) {
    assert.equal(expand(line), line);
  }
});
