"""``refbridge fetch``: a researcher's publication list read live from the service that keeps
it (ORCID, dblp, OpenAlex, Semantic Scholar, arXiv), through the polite client of
``refbridge.services.http`` (cache, pacing, retries, ``--offline``), and turned into records by
the same readers that read the services' saved answers from files.

``fetch_records(target, options)`` is the entry point, ``fetch_to_file`` the whole command
(several targets written to one output with the key lock's keys); ``parse_target`` reads what
a user types (``orcid:0000-0002-1825-0097``, ``dblp:95/7448-1``, ``openalex:A5025692314``,
``s2:1723755``, ``arxiv-author:"Ada Lovelace"``). Nothing here runs at import time.
"""

from refbridge.fetch.command import fetch_to_file
from refbridge.fetch.run import fetch_records
from refbridge.fetch.targets import Target, TargetError, parse_target

__all__ = ["Target", "TargetError", "fetch_records", "fetch_to_file", "parse_target"]
