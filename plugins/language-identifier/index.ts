export { HTMLLanguageParser } from './html-language-parser.js';
export { LanguageIndexingFilter } from './language-indexing-filter.js';
export { LanguageDetector, parseLanguage, LANGUAGE_KEY } from './language-detector.js';
