"""Where the records of each dump format start in its bytes (``refbridge.splits``), so that one
large uncompressed dump file is cut into pieces read side by side: the JSON Lines dumps at every
line's start, dblp.xml at its top-level elements. A format not listed is read whole. This module
must never read a file.
"""

from __future__ import annotations

from refbridge.formats.dumps.dblp_xml import BOUNDARIES as DBLP_BOUNDARIES
from refbridge.splits import LINES, Boundaries

#: Reader name -> where its records start.
BOUNDARIES: dict[str, Boundaries] = {
    "openalex-works": LINES,
    "crossref-works": LINES,
    "arxiv-metadata": LINES,
    "dblp-xml": DBLP_BOUNDARIES,
}
