"""The web services refbridge asks, below the jobs that ask them: the one polite HTTP client
(``http``: cache, pacing, retries, ``--offline``; ``retrying``: the policy every client
shares, Zotero's too; ``cache``; ``settings``: where each service lives and how politely to ask
it; ``errors``), and one module per service holding its requests (addresses, parameters,
paging) and the reading of its answers into works found (``found``), judged (``matching``) and
merged into a record (``merge``); Zotero's desktop and zotero.org as the package ``zotero``.

The jobs (``enrich``, ``fetch``, ``verify``, ``zotero_bridge``) import from here, never from
one another. A service module reads its answers with the same code as the reader of the
service's saved answers in ``refbridge.formats.services``, never with a copy of it. A module
here must never import a job, the pipeline or the command line, nor print.
"""
