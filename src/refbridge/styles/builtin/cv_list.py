"""refbridge's own CV style ``cv``, the default of ``refbridge cv`` (``cv-list.csl`` here).

Catalogue styles cut long author lists (et al.) and add year letters (2026a, 2026b), which on a
CV hide the owner and read oddly; this CSL style lists every author in reading order, then the
title, the venue and the year. Copy ``cv-list.csl`` into a style folder to make your own.
"""

from __future__ import annotations

from refbridge.styles.definitions import CslStyleDefinition

STYLES = [
    CslStyleDefinition("cv", "CV publication list: every author, title, venue, year; newest "
                             "first", "cv-list.csl", newest_first=True),
]
