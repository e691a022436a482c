// Entry of the rules page: translation and board pictures.

import { translator, chooseLang, translatePage } from './i18n.js';
import { drawDiagrams } from './diagram.js';

translatePage(document, translator(chooseLang(navigator.languages)));
drawDiagrams(document);
