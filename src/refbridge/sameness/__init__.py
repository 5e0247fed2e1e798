"""Whether two records are one work, or two names one person: the one home of these answers.

``text`` folds titles and names to the words they are compared by (Unicode and LaTeX alike);
``ids`` reads a record's identifiers (DOI, arXiv id, ISBN) in the form they are compared in;
``keys`` gives the identity keys that find a work again (the key lock's, a check's signature,
the merge driver's, a Zotero library's index); ``people`` says whether two names are one
person; ``works`` says whether two records are one work and why, with the rules that keep
editions, volumes, parts, errata and replies apart. ``merge``, ``dedupe``, ``check``,
``enrich``, ``verify``, ``bibmerge``, ``libdiff``, ``zotero_bridge``, ``cv`` and ``site`` ask
here. Nothing in this package changes a record, reads a file or makes a request.
"""
