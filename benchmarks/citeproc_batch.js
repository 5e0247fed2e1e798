#!/usr/bin/env node
// citeproc_batch.js - citeproc-js's renderings of many styles in one process, for the CSL
// parity harness (benchmarks/csl_parity.py).
//
// Usage: node citeproc_batch.js JOBS.json > RESULTS.jsonl
//
// JOBS.json: {"locales": DIR, "items": [CSL-JSON items], "sequence": [citations],
//             "jobs": [{"key": K, "style": PATH, "lang": "de-DE" or null, "formats": [...]}]}
// For each job and format it writes one JSON line
//   {"key", "format", "ids", "entries", "cites": {id: text}, "sequence": [text], "error"}
// made with the calls of ../shared/tools/csl-reference.js (updateItems, makeBibliography,
// makeCitationCluster for each item alone), plus the citations of "sequence" in document
// order, in a fresh engine (rebuildProcessorState, which gives first/subsequent/ibid positions
// by note number, with the cited items only registered).
// "lang" is forced (a dependent style's default locale rendered with its parent). Modules are
// found through NODE_PATH (bash ../shared/tools/setup-js.sh).
'use strict';
const fs = require('fs');
const path = require('path');

const CSL = require('citeproc');

const [jobsPath] = process.argv.slice(2);
if (!jobsPath) {
  process.stderr.write('usage: node citeproc_batch.js JOBS.json\n');
  process.exit(2);
}
const input = JSON.parse(fs.readFileSync(jobsPath, 'utf8'));
const byId = new Map(input.items.map((item) => [String(item.id), item]));
const locales = new Map();

const sys = {
  retrieveLocale(lang) {
    if (!locales.has(lang)) {
      const file = path.join(input.locales, `locales-${lang}.xml`);
      locales.set(lang, fs.existsSync(file) ? fs.readFileSync(file, 'utf8')
        : fs.readFileSync(path.join(input.locales, 'locales-en-US.xml'), 'utf8'));
    }
    return locales.get(lang);
  },
  retrieveItem(id) {
    // a fresh copy: citeproc-js writes into the items it is given
    return JSON.parse(JSON.stringify(byId.get(String(id))));
  },
};

function engine(styleXml, lang) {
  return lang ? new CSL.Engine(sys, styleXml, lang, true) : new CSL.Engine(sys, styleXml);
}

function bibliographyAndCites(processor, format) {
  const out = { ids: [], entries: [], cites: {} };
  processor.setOutputFormat(format);
  const bib = processor.makeBibliography(); // false: the style has no bibliography
  for (const id of byId.keys()) {
    out.cites[id] = processor.makeCitationCluster([{ id }]);
  }
  if (bib) {
    // entry_ids also lists the items that rendered nothing, which have no entry: those are
    // the bibliography_errors, or (where the style gave no error) the items whose entry
    // selected alone is none (asked after the citations, which it must not change)
    const ids = bib[0].entry_ids.map((entry) => String(entry[0]));
    const errors = new Set(bib[0].bibliography_errors.map((error) => String(error.itemID)));
    const empty = ids.length === bib[1].length ? new Set()
      : errors.size ? errors
      : new Set(ids.filter((id) => processor.makeBibliography(
        { select: [{ field: 'id', value: id }] })[1].length === 0));
    out.ids = ids.filter((id) => !empty.has(id));
    out.entries = bib[1].map((entry) => entry.trim());
  }
  return out;
}

function run(job, styleXml) {
  // one engine per format: an engine that rendered citations carries state into the next
  // bibliography (a note style's parenthesis nesting: "vol. 93 [11 août 2014)" in the HTML
  // bibliography after the text citations), which a fresh engine, as Zotero's, does not show
  return job.formats.map((format) => {
    const processor = engine(styleXml, job.lang);
    processor.updateItems([...byId.keys()]);
    const rendered = bibliographyAndCites(processor, format);
    // then the sequence, in an engine of its own as a document's citations are (an engine
    // carries state from one rendering to the next: the first date range it renders takes the
    // affixes of the last cs:date built); rebuildProcessorState registers the cited items
    // only, giving first/subsequent/ibid positions by note number
    const citations = JSON.parse(JSON.stringify(input.sequence));
    const sequence = engine(styleXml, job.lang).rebuildProcessorState(citations, format);
    return { key: job.key, format, ...rendered, sequence: sequence.map((row) => row[2]),
      error: null };
  });
}

for (const job of input.jobs) {
  let styleXml;
  try {
    styleXml = fs.readFileSync(job.style, 'utf8');
  } catch (e) {
    process.stdout.write(JSON.stringify({ key: job.key, error: String(e) }) + '\n');
    continue;
  }
  let lines;
  try {
    lines = run(job, styleXml);
  } catch (e) {
    lines = [{ key: job.key, error: String(e && e.message ? e.message : e) }];
  }
  for (const line of lines) {
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}
