// Entry of the pages without a board: the ones that explain a link
// leading nowhere (not found, expired, failed; the server fills
// web/message.html) and "Which rules?". Translation only, nothing that
// draws a board.

import { translator, chooseLang, translatePage } from './i18n.js';

translatePage(document, translator(chooseLang(navigator.languages)));
