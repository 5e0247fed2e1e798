"""The pages of ``refbridge serve``: the picker a cite-as-you-write request opens and the local
app, as plain HTML, one stylesheet and vanilla scripts (no build step).

The pages hold no record text: their scripts fetch it from the API and set it as text
(``textContent``); the one exception is a preview, which is the CSL engine's HTML (record text
escaped there). The server sends the pages with a policy that runs only these scripts. This
module must never put a value of a request or a record into a page.
"""

from __future__ import annotations

import json

from refbridge.serve.cayw import SHORT_LABELS

_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="stylesheet" href="/static/serve.css">
<script src="/static/common.js" defer></script>
<script src="/static/{script}" defer></script>
</head>
"""

PICKER_PAGE = _HEAD.format(title="refbridge: pick citations", script="picker.js") + """<body>
<main>
<h1>Pick citations</h1>
<input id="search" type="search" placeholder="Search key, author, title, year" autofocus>
<ul id="results" class="results"></ul>
<h2>Picked</h2>
<ol id="picked" class="picked"></ol>
<p>
<button id="insert" type="button">Insert</button>
<button id="cancel" type="button">Cancel</button>
</p>
<p id="status" role="status"></p>
</main>
</body>
</html>
"""

APP_PAGE = _HEAD.format(title="refbridge", script="app.js") + """<body>
<main>
<h1>refbridge</h1>
<section id="load-view">
<h2>Load</h2>
<div id="drop" class="drop">Drop files here, or <input id="files" type="file" multiple></div>
<textarea id="paste" rows="4" placeholder="Or paste BibTeX, RIS, CSL-JSON..."></textarea>
<textarea id="lookup" rows="3" placeholder="Or DOIs, arXiv ids, profiles (orcid:..., dblp:...), one a line"></textarea>
<p><button id="load-paste" type="button">Load pasted text</button>
<button id="look-up" type="button">Look up</button>
<button id="clear" type="button">Remove all records</button></p>
<p id="status" role="status"></p>
</section>
<section id="records-view">
<h2>Records</h2>
<input id="filter" type="search" placeholder="Filter">
<table id="records"><thead><tr><th>Key</th><th>Authors</th><th>Year</th><th>Title</th>
<th>Findings</th></tr></thead><tbody></tbody></table>
</section>
<section id="preview-view">
<h2>Preview</h2>
<input id="style-search" type="search" placeholder="Search styles (apa, ieee, nature...)">
<select id="style"></select>
<div id="preview" class="preview"></div>
<p id="preview-more"></p>
</section>
<section id="export-view">
<h2>Export</h2>
<select id="format"></select>
<a id="download" href="#" download>Download</a>
</section>
<section id="cv-view">
<h2>CV</h2>
<form id="cv-form">
<label>Owner <input name="owner" placeholder="Ada Lovelace, Lovelace, A."></label>
<label>Style <input name="style" value="cv"></label>
<label>Group by <select name="group-by"><option>year</option><option>type</option>
<option>subject</option><option>keyword</option><option>none</option></select></label>
<label>Sort <select name="sort"><option>newest</option><option>oldest</option>
<option>title</option></select></label>
<label>Title <input name="title" value="Publications"></label>
<label>Since <input name="since" size="4"></label>
<label>Until <input name="until" size="4"></label>
<label><input name="all" type="checkbox" value="1"> every record</label>
</form>
<div id="cv-preview" class="preview"></div>
<p>Download: <a id="cv-html" href="#" download>HTML</a> <a id="cv-docx" href="#" download>DOCX</a>
<a id="cv-markdown" href="#" download>Markdown</a> <a id="cv-latex" href="#" download>LaTeX</a></p>
</section>
<section id="cited-view">
<h2>Cited by a document</h2>
<input id="document" type="file" accept=".tex,.aux,.bcf,.md,.typ,.rst">
<p id="cited-status" role="status"></p>
<pre id="cited-bib"></pre>
</section>
</main>
</body>
</html>
"""

_COMMON_JS = r"""'use strict';
const TOKEN = new URLSearchParams(location.search).get('token') || '';

async function api(path, options = {}) {
  const headers = {'X-Refbridge-Token': TOKEN};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {method: options.method || 'GET', headers,
                                      body: options.body});
  if (!response.ok) {
    let message = response.statusText;
    try { message = (await response.json()).error || message; } catch (e) { /* not JSON */ }
    throw new Error(message);
  }
  return response;
}

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function say(id, text) { document.getElementById(id).textContent = text; }
"""

_PICKER_JS = r"""'use strict';
const PICK = location.pathname;
const LABELS = """ + json.dumps(list(SHORT_LABELS)) + r""";
const picked = [];

async function search() {
  const query = document.getElementById('search').value;
  const found = await (await api('/api/entries?q=' + encodeURIComponent(query))).json();
  const list = document.getElementById('results');
  list.replaceChildren();
  for (const entry of found.entries.slice(0, 50)) {
    const item = element('li');
    const add = element('button', 'Add');
    add.type = 'button';
    add.addEventListener('click', () => choose(entry));
    item.append(add, ' ', element('b', entry.key), ' ',
                element('span', [entry.authors.join(', '), entry.year, entry.title]
                                .filter(Boolean).join('. ')));
    list.append(item);
  }
}

function field(citation, name, placeholder) {
  const input = element('input');
  input.placeholder = placeholder;
  input.addEventListener('input', () => { citation[name] = input.value; });
  return input;
}

function labels(citation) {
  const select = element('select');
  for (const label of LABELS) {
    const option = element('option', label);
    option.value = label;
    select.append(option);
  }
  select.value = 'page';
  select.addEventListener('change', () => { citation.label = select.value; });
  return select;
}

function choose(entry) {
  const citation = {key: entry.key, locator: '', label: 'page', prefix: '', suffix: '',
                    suppressAuthor: false};
  picked.push(citation);
  const item = element('li');
  const suppress = element('input');
  suppress.type = 'checkbox';
  suppress.addEventListener('change', () => { citation.suppressAuthor = suppress.checked; });
  item.append(element('b', entry.key), ' ', field(citation, 'prefix', 'prefix'), ' ',
              labels(citation), ' ', field(citation, 'locator', 'locator'), ' ',
              field(citation, 'suffix', 'suffix'), ' ', suppress, ' no author');
  document.getElementById('picked').append(item);
}

let finished = false;

async function finish(body) {
  finished = true;
  try {
    await api(PICK, {method: 'POST', body: JSON.stringify(body)});
    say('status', 'Done: you may close this tab.');
    window.close();
  } catch (error) { say('status', error.message); }
}

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('search').addEventListener('input', search);
  document.getElementById('insert').addEventListener('click',
    () => finish({citations: picked}));
  document.getElementById('cancel').addEventListener('click', () => finish({cancel: true}));
  // a tab closed without a pick cancels it, so the editor does not wait for the timeout
  window.addEventListener('pagehide', () => {
    if (!finished) {
      navigator.sendBeacon(PICK + '?token=' + encodeURIComponent(TOKEN),
                           new Blob([JSON.stringify({cancel: true})], {type: 'text/plain'}));
    }
  });
  search();
});
"""

_APP_JS = r"""'use strict';

async function listRecords() {
  const query = document.getElementById('filter').value;
  const found = await (await api('/api/entries?q=' + encodeURIComponent(query))).json();
  const body = document.querySelector('#records tbody');
  body.replaceChildren();
  for (const entry of found.entries) {
    const row = element('tr');
    const findings = element('td');
    for (const finding of entry.findings) {
      findings.append(element('div', finding.severity + ': ' + finding.message,
                              'finding ' + finding.severity));
    }
    row.append(element('td', entry.key), element('td', entry.authors.join(', ')),
               element('td', entry.year), element('td', entry.title), findings);
    body.append(row);
  }
  if (found.total > found.entries.length) {
    const more = element('tr');
    const cell = element('td', (found.total - found.entries.length) +
                         ' more records: filter to see them');
    cell.colSpan = 5;
    more.append(cell);
    body.append(more);
  }
}

async function showPreview() {
  const style = document.getElementById('style').value || 'apa';
  try {
    const answer = await (await api('/api/preview?output=html&style=' +
                                    encodeURIComponent(style))).json();
    // the CSL engine's HTML: record text is escaped there
    document.getElementById('preview').innerHTML = answer.text;
    say('preview-more', answer.total > answer.shown ? 'The first ' + answer.shown + ' of ' +
        answer.total + ' records.' : '');
  } catch (error) { say('preview', error.message); }
}

async function findStyles() {
  const query = document.getElementById('style-search').value;
  const found = await (await api('/api/styles?q=' + encodeURIComponent(query))).json();
  const select = document.getElementById('style');
  const current = select.value;
  select.replaceChildren();
  for (const style of found.styles) {
    const option = element('option', style.name + ' (' + style.title + ')');
    option.value = style.name;
    select.append(option);
  }
  const wanted = current || 'apa';
  if (![...select.options].some(option => option.value === wanted)) {
    const option = element('option', wanted);
    option.value = wanted;
    select.prepend(option);
  }
  select.value = wanted;
  showPreview();
}

async function listFormats() {
  const found = await (await api('/api/formats')).json();
  const select = document.getElementById('format');
  for (const format of found.formats) {
    const option = element('option', format.name + ': ' + format.description);
    option.value = format.name;
    select.append(option);
  }
  select.value = 'bibtex';
  pointDownload();
}

function pointDownload() {
  const format = document.getElementById('format').value;
  document.getElementById('download').href = '/api/export?format=' +
    encodeURIComponent(format) + '&token=' + encodeURIComponent(TOKEN);
}

function cvQuery() {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData(document.getElementById('cv-form'))) {
    if (value) query.set(name, value);
  }
  return query;
}

async function showCv() {
  const query = cvQuery();
  for (const to of ['html', 'docx', 'markdown', 'latex']) {
    const download = new URLSearchParams(query);
    download.set('to', to);
    download.set('token', TOKEN);
    document.getElementById('cv-' + to).href = '/api/cv?' + download;
  }
  try {
    const answer = await (await api('/api/cv?' + query)).json();
    // the CV writer's HTML: record text is escaped there
    document.getElementById('cv-preview').innerHTML = answer.html;
  } catch (error) { say('cv-preview', error.message); }
}

async function refresh() { await listRecords(); await showPreview(); await showCv(); }

async function load(name, content) {
  // content: {text} pasted, or {data} a file's bytes in base64 (gzip, tar, any encoding)
  try {
    const answer = await (await api('/api/load', {method: 'POST',
                                                  body: JSON.stringify({name, ...content})})).json();
    say('status', name + ': ' + answer.added + ' records' +
        (answer.problems.length ? '; ' + answer.problems.join('; ') : ''));
  } catch (error) { say('status', name + ': ' + error.message); }
  await refresh();
}

async function lookUp() {
  say('status', 'Looking up...');
  try {
    const answer = await (await api('/api/lookup', {method: 'POST', body: JSON.stringify(
      {text: document.getElementById('lookup').value})})).json();
    say('status', answer.added + ' records found' +
        (answer.problems.length ? '; ' + answer.problems.join('; ') : ''));
  } catch (error) { say('status', error.message); }
  await refresh();
}

async function base64Of(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

async function loadFiles(files) {
  for (const file of files) await load(file.name, {data: await base64Of(file)});
}

async function citedBy(file) {
  try {
    const answer = await (await api('/api/cited', {method: 'POST', body: JSON.stringify(
      {name: file.name, text: await file.text()})})).json();
    say('cited-status', answer.cited.length + ' keys cited' +
        (answer.missing.length ? '; not in the records: ' + answer.missing.join(', ') : ''));
    say('cited-bib', answer.bib);
  } catch (error) { say('cited-status', error.message); }
}

document.addEventListener('DOMContentLoaded', () => {
  const drop = document.getElementById('drop');
  drop.addEventListener('dragover', event => event.preventDefault());
  drop.addEventListener('drop', event => {
    event.preventDefault();
    loadFiles(event.dataTransfer.files);
  });
  document.getElementById('files').addEventListener('change',
    event => loadFiles(event.target.files));
  document.getElementById('load-paste').addEventListener('click',
    () => load('pasted', {text: document.getElementById('paste').value}));
  document.getElementById('look-up').addEventListener('click', lookUp);
  document.getElementById('clear').addEventListener('click', async () => {
    await api('/api/clear', {method: 'POST', body: '{}'});
    await refresh();
  });
  document.getElementById('filter').addEventListener('input', listRecords);
  document.getElementById('style-search').addEventListener('input', findStyles);
  document.getElementById('style').addEventListener('change', showPreview);
  document.getElementById('format').addEventListener('change', pointDownload);
  document.getElementById('document').addEventListener('change',
    event => citedBy(event.target.files[0]));
  document.getElementById('cv-form').addEventListener('input', showCv);
  document.getElementById('cv-form').addEventListener('submit', event => event.preventDefault());
  listRecords();
  showCv();
  findStyles();
  listFormats();
});
"""

_CSS = """body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 60rem;
       padding: 1rem; }
.drop { border: 2px dashed #888; padding: 1rem; margin-bottom: .5rem; }
textarea, input[type=search] { width: 100%; box-sizing: border-box; }
table { border-collapse: collapse; width: 100%; }
td, th { border-bottom: 1px solid #ddd; padding: .25rem; text-align: left;
         vertical-align: top; }
.finding.error { color: #a00; } .finding.warning { color: #a60; }
.finding.note { color: #555; }
label { margin-right: .75rem; white-space: nowrap; }
.preview { border: 1px solid #ddd; padding: .5rem; min-height: 2rem; }
.results li, .picked li { margin: .25rem 0; }
pre { white-space: pre-wrap; }
"""

#: The scripts, by path (served without the token: they hold no data).
SCRIPTS: dict[str, str] = {"/static/common.js": _COMMON_JS, "/static/picker.js": _PICKER_JS,
                           "/static/app.js": _APP_JS}
#: The stylesheet, by path.
STYLESHEETS: dict[str, str] = {"/static/serve.css": _CSS}
