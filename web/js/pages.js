// Entry of the rules page: translation, board pictures, and the boards
// to try each rule on.

import { translator, chooseLang, translatePage } from './i18n.js';
import { drawDiagrams } from './diagram.js';
import { bindTryIts } from './tryit.js';

const t = translator(chooseLang(navigator.languages));
translatePage(document, t);
drawDiagrams(document);
bindTryIts(document, t);
