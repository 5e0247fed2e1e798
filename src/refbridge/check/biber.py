"""biber's data model warnings (``biber --tool --validate-datamodel FILE``) read as the rules
of ``refbridge check`` they match, so the two can be compared entry by entry. This module
must never run biber; it only reads what biber printed.
"""

from __future__ import annotations

import re

#: biber's warning -> the check rule that reports the same problem, first match wins.
BIBER_WARNINGS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), rule) for pattern, rule in (
        (r"Entry '(?P<key>[^']*)' .*Missing mandatory field", "missing-field"),
        (r"Entry '(?P<key>[^']*)' .*Invalid entry type", "unknown-entry-type"),
        (r"Entry '(?P<key>[^']*)' .*Field '[^']*' invalid in data model", "unknown-field"),
        (r"Entry '(?P<key>[^']*)' .*Invalid field '[^']*' for entrytype", "field-not-for-type"),
        (r"Entry '(?P<key>[^']*)' .*Invalid value of field 'year'", "field-type"),
        (r"Entry '(?P<key>[^']*)' .*Invalid value", "field-type"),
        (r"Entry '(?P<key>[^']*)' .*Invalid format '[^']*' of (?:end )?date field",
         "date-format"),
        (r"Entry '(?P<key>[^']*)' .*Invalid ISBN", "isbn"),
        (r"Entry '(?P<key>[^']*)' .*Invalid ISSN", "issn"),
        (r"Entry '(?P<key>[^']*)' .*Invalid ISMN", "field-type"),
        ((r"crossref '[^']*' in entry '(?P<key>[^']*)'|database entry for crossref '[^']*' in "
         r"entry '(?P<key2>[^']*)'"), "missing-reference"),
        (r"xdata entry '[^']*' in entry '(?P<key>[^']*)'", "missing-reference"),
        (r"Name \".*\" has too many commas, skipping entry '(?P<key>[^']*)'", "names"),
    ))


def biber_findings(log: str) -> list[tuple[str, str]]:
    """(rule, entry key) for each WARN/ERROR line of biber's output a rule matches."""
    found: list[tuple[str, str]] = []
    for line in log.splitlines():
        if not line.startswith(("WARN", "ERROR")):
            continue
        for pattern, rule in BIBER_WARNINGS:
            match = pattern.search(line)
            if match is not None:
                key = next(v for k, v in match.groupdict().items() if v is not None)
                found.append((rule, key))
                break
    return found
