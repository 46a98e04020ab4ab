/**
 * lib-regex-filter, as Nutch's library plugin of the same name: code the URL filters and
 * urlnormalizer-regex share, with no extension of its own. A plugin that imports it lists
 * `"requires": ["lib-regex-filter"]` in its manifest, so it is activated (plugin.auto-activation)
 * whenever one of them is, and imports it only through this module.
 * - the java.util.regex → JavaScript translator (one for filters and the normaliser) and the
 *   Matcher replacement-string translator (urlnormalizer-regex, index-replace);
 * - rule sources (`<prefix>.rules` inline text or `<prefix>.file` on the configuration path) and
 *   rule-file errors naming file and line;
 * - the URL split filters look at (as java.net.URL, without WHATWG rewriting) and the plausibility
 *   check every nutch-ts URL filter applies first;
 * - the suffix / domain / host entry set of urlfilter-domain and urlfilter-domaindenylist.
 */
export { compileJavaRegex, JavaRegexError, translateJavaRegex, type TranslatedRegex, type TranslateOptions } from './java-regex/index.js';
export { groupNamesOf, JavaReplacementError, translateJavaReplacement } from './java-regex/java-replacement.js';
export { readRuleSource, ruleError, splitLines, type RuleSource } from './rule-source.js';
export { isPlausibleURL, maxURLLength, parseURL, type URLParts } from './java-url.js';
export { listedIn, readDomainSet } from './domain-set.js';
export { parseRegexRules, type RegexRule } from './regex-rules.js';
