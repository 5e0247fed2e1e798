"""Publication lists for a CV: a CSL style with its entries ordered newest first.

``apa-cv`` comes from the official catalogue already; these add the other common styles. With
``--highlight NAME`` the CV owner's name is set in bold.
"""

from __future__ import annotations

from refbridge.styles.definitions import CslStyleDefinition

STYLES = [
    CslStyleDefinition("ieee-cv", "IEEE, CV publication list: newest first, numbered in that order",
                       "ieee", newest_first=True),
    CslStyleDefinition("chicago-cv", "Chicago author-date, CV publication list: newest first",
                       "chicago-author-date", newest_first=True),
    CslStyleDefinition("acm-cv", "ACM, CV publication list: newest first",
                       "association-for-computing-machinery", newest_first=True),
]
