// Entry of the pages that explain a link leading nowhere (not found,
// expired, failed; the server fills web/message.html): translation only,
// nothing that draws a board.

import { translator, chooseLang, translatePage } from './i18n.js';

translatePage(document, translator(chooseLang(navigator.languages)));
