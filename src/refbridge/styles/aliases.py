"""Short style names people type, mapped to ids in the official CSL style catalogue.

A table, not logic: add a row to add an alias. Aliases are looked up after refbridge's style
modules and before catalogue ids. This module must never name a file path.
"""

from __future__ import annotations

ALIASES: dict[str, str] = {
    "apa": "apa",
    "ieee": "ieee",
    "chicago": "chicago-author-date",
    "mla": "modern-language-association",
    "harvard": "harvard-cite-them-right",
    "vancouver": "nlm-citation-sequence",  # upstream renamed the independent style in 2026
    "nlm": "nlm-citation-sequence",
    "nature": "nature",
    "acm": "association-for-computing-machinery",
}
