"""The bridge to Zotero: push records into a library, pull a library out, keep a file in sync.

Two services hold a Zotero library: the Zotero desktop program on this computer (its connector
server and, from Zotero 7, its local API, both on 127.0.0.1:23119) and zotero.org (the Web API
v3); and Zotero's database file, ``zotero.sqlite``, can be read without either. The modules,
one job each:

- ``address``: which service, library and collection a command means (``zotero-web:user:1``),
  and the client of its service;
- ``refbridge.services.zotero`` (outside this package): HTTP to either service (retries,
  ``Backoff``, at most four requests at once), the reads of a library, the writes on
  zotero.org and the connector's saves, asked with plain values;
- ``sameness.keys.LibraryIndex`` (outside this package): when a record is already in a library
  (DOI, arXiv id, ISBN, title+year+author);
- ``collections``: a collection named on the command line, found among the library's (or the
  connector's targets);
- ``mirror``: a local copy of a library, brought up to date by library version;
- ``datadir``, ``snapshot``, ``sqlite``, ``dbmirror``: Zotero's database found, copied (never
  locked or written), read as the Web API's item JSON, and kept up to date item by item;
- ``plan``: what a push does with each record;
- ``push``, ``pull``, ``sync``: the three commands, each whole (read, key lock, write, report).

Zotero's item JSON becomes records, and records items, in ``formats.zotero.items`` (the same
mapping reads Better BibTeX's JSON export). Nothing here prints or exits: problems are ``ZoteroError``s with a message that says what to do.
"""

from __future__ import annotations

# The address kinds. ``formats.catalogue.SOURCES`` names the same kinds, so that a conversion
# knows an input for a library address without importing this package.
DESKTOP = "zotero-desktop"
WEB = "zotero-web"
SQLITE = "zotero-sqlite"
SERVICES: tuple[str, ...] = (DESKTOP, WEB)
