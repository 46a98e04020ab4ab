/**
 * bin/nutch commands nutch-ts does not build, each with what to use instead: `nutch <name>` answers
 * "not available in nutch-ts" with that advice (exit 2) rather than "Unknown command" and the whole
 * usage. docs/migrating-from-nutch.md lists the same commands; tests/cli/unavailable-commands.test.ts
 * keeps the two in step.
 */
export const unavailableCommands: Record<string, string> = {
  dedupredirects: 'use `nutch dedup`: it marks duplicates by signature among fetched pages; redirects are not deduplicated as a separate step',
  commoncrawldump: 'use `nutch warc` (WARC/1.1, what Common Crawl publishes) or `nutch dump` (content as files by MIME type); CBOR output is not built',
  solrindex: 'deprecated in Nutch too: use `nutch index` with an IndexWriter plugin configured in index-writers.json',
  solrdedup: 'deprecated in Nutch too: use `nutch dedup`, then `nutch clean` to remove the duplicates from the index',
  solrclean: 'deprecated in Nutch too: use `nutch clean`',
  webgraph: 'the WebGraph/LinkRank family is not built: link analysis scores come from the scoring plugins (scoring-opic by default) during updatedb',
  linkrank: 'the WebGraph/LinkRank family is not built: link analysis scores come from the scoring plugins (scoring-opic by default) during updatedb',
  scoreupdater: 'the WebGraph/LinkRank family is not built: scores are updated by the scoring plugins during updatedb',
  nodedumper: 'the WebGraph/LinkRank family is not built: `nutch readdb <crawldb> -topN <n> <out>` lists the top-scoring URLs',
  junit: 'nutch-ts has no Java tests: run `npm test` in a checkout of nutch-ts',
  startserver: 'use `nutch server` (the same -host and -port; a JSON API and a crawl dashboard, not Nutch\'s REST API — see docs/server.md), or embed nutch-ts with createNutch() (docs/embedding.md) in your own server',
};
