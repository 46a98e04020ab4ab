// @ts-check
/**
 * An IndexingFilter for nutch-ts: counts the words of the parsed text and adds `wordcount` and
 * `readingtime` (minutes) fields; drops documents shorter than readingtime.min.words.
 * Plain JavaScript with JSDoc types from nutch-ts/plugin: no build step, no decorators.
 */

/** @typedef {import('nutch-ts/plugin').IndexingFilter} IndexingFilter */
/** @typedef {import('nutch-ts/plugin').PluginContext} PluginContext */
/** @typedef {import('nutch-ts/plugin').NutchDocument} NutchDocument */
/** @typedef {import('nutch-ts/plugin').IndexingContext} IndexingContext */

/** @implements {IndexingFilter} */
export class ReadingTimeIndexingFilter {
  /** @param {PluginContext} ctx */
  constructor(ctx) {
    this.wordsPerMinute = ctx.conf.getInt('readingtime.words.per.minute', 200);
    this.minWords = ctx.conf.getInt('readingtime.min.words', 0);
  }

  /**
   * @param {NutchDocument} doc
   * @param {IndexingContext} ctx
   * @returns {NutchDocument | null}
   */
  filter(doc, ctx) {
    const words = countWords(ctx.parse.text);
    if (words < this.minWords) return null;
    doc.fields.wordcount = [words];
    doc.fields.readingtime = [Math.max(1, Math.ceil(words / this.wordsPerMinute))];
    return doc;
  }
}

/** @param {string} text */
export function countWords(text) {
  let n = 0;
  for (const _ of text.matchAll(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)) n++;
  return n;
}
