// Entry of the rules page: translation, board pictures, and the boards
// to try each rule on.

import { pageTranslator, keepPlace } from './i18n.js';
import { drawDiagrams } from './diagram.js';
import { bindTryIts } from './tryit.js';

const t = pageTranslator(document);
keepPlace(document, location);
drawDiagrams(document);
bindTryIts(document, t);
