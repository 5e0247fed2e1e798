#!/usr/bin/env node
// citationjs_bibtex.js - Citation.js reading a .bib and writing it as BibTeX again:
// the peer of `refbridge convert FILE --to biblatex` in benchmarks/run.py (the real-library job).
// Usage: NODE_PATH=~/.cache/refbridge-reference-js/node_modules node citationjs_bibtex.js FILE
// Output: the BibTeX on stdout. Exit status: 0 written, 1 parse error.
'use strict';
const fs = require('fs');
const path = require('path');

const modules = process.env.CSL_REF_NODE_MODULES ||
  path.join(process.env.HOME || '/root', '.cache', 'refbridge-reference-js', 'node_modules');
const req = (name) => require(require.resolve(name, { paths: [modules, ...module.paths] }));
const core = req('@citation-js/core');
req('@citation-js/plugin-bibtex');
core.logger.level = 'error';

try {
  const text = fs.readFileSync(process.argv[2], 'utf8');
  const items = core.plugins.input.chain(text, { forceType: '@biblatex/text', generateGraph: false });
  process.stdout.write(core.plugins.output.format('bibtex', items));
} catch (e) {
  process.stderr.write(`citation.js: ${e.message}\n`);
  process.exitCode = 1;
}
