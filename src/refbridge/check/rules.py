"""The rules of ``refbridge check`` as a table (stable id, severity, what it finds, whether
``--fix`` repairs it), the ``Finding`` a rule gives, and the choice of rules to run
(``--select``/``--ignore``). This module must never look at a record.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from refbridge.errors import ExitStatus, RefbridgeError, location
from refbridge.model import Source

#: Severities, most serious first: an ``error`` loses data in bibtex or biber (a field
#: ignored, an entry skipped); a ``warning`` is a value or entry that is wrong as what it
#: claims to be; a ``note`` is style (output that is correct but not as a careful author would
#: have it).
SEVERITIES: tuple[str, ...] = ("error", "warning", "note")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: its id (for ``--select``/``--ignore`` and SARIF), severity and description."""

    id: str
    severity: str
    what: str
    fixable: bool = False


#: Every rule, in the order the README lists them.
RULES: tuple[Rule, ...] = (
    Rule("duplicate-key", "warning", "a citation key already used by an earlier entry"),
    Rule("duplicate-record", "warning",
         "the same DOI, or the same title, year and first author, as an earlier record"),
    Rule("missing-field", "warning", "a field the data model or a style requires is missing"),
    Rule("unknown-entry-type", "error",
         "an entry type the dialect does not know (biber reads it as @misc)"),
    Rule("unknown-field", "warning", "a field biblatex's data model does not know (biber "
         "ignores it)"),
    Rule("field-not-for-type", "warning",
         "a field biblatex's data model does not allow for the entry type"),
    Rule("field-type", "error", "a value that is not of its field's data type (integer, "
         "year, key, pattern): biber ignores the field"),
    Rule("date-format", "error",
         "a date field that is not ISO 8601-2/EDTF as biblatex reads it: biber ignores it"),
    Rule("year", "warning", "a year that is not a number, or far from now"),
    Rule("month", "warning", "a month that is neither a month macro nor a number 1-12", True),
    Rule("pages", "warning", "pages that are not a page or a range, or that end before they "
         "start"),
    Rule("page-range-dash", "note", "a page range written with one hyphen, not --", True),
    Rule("doi", "warning", "a DOI that is no DOI, or holds more than the DOI", True),
    Rule("url", "warning", "a URL that is not a web address"),
    Rule("isbn", "warning", "an ISBN with a wrong length or check digit"),
    Rule("issn", "warning", "an ISSN with a wrong form or check digit"),
    Rule("title-case", "warning", "capitals in a title outside braces, which a style that "
         "changes case (bibtex's change.case$) lowers"),
    Rule("braces", "error", "braces that do not balance as LaTeX reads them"),
    Rule("names", "error", "a name list that is not BibTeX name syntax (too many commas, "
         "a missing or trailing 'and', 'others' not last): biber skips the entry"),
    Rule("html", "warning", "HTML entities or markup in a value", True),
    Rule("unicode-nfc", "note", "text that is not in Unicode normal form C", True),
    Rule("undefined-macro", "error",
         "a bare word that is no @string and no month macro (bibtex and biber read it as "
         "empty)"),
    Rule("missing-reference", "error",
         "a crossref, xref or xdata naming a key that no entry of the file has"),
    Rule("key-pattern", "note", "a citation key that is not the key pattern's key for the "
         "entry"),
)
RULES_BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}


class CheckUsageError(RefbridgeError):
    """A check that cannot run as asked (an unknown requirement table, dialect or rule)."""

    exit_status = ExitStatus.USAGE


@dataclass(frozen=True, slots=True)
class Fix:
    """A safe repair of one field of a .bib entry: its raw value as written, and the new one."""

    field: str
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem with one record: the rule (``code``), what is wrong, where, and, for a
    problem ``--fix`` repairs, the fix."""

    code: str
    message: str
    source: Source | None
    key: str | None = None
    fix: Fix | None = None

    @property
    def severity(self) -> str:
        return RULES_BY_ID[self.code].severity

    def __str__(self) -> str:
        file, line = (self.source.file, self.source.line) if self.source else (None, None)
        return f"{location(file, line)}: {self.severity}: {self.message} [{self.code}]"


def rule_ids(names: Iterable[str]) -> frozenset[str]:
    """``names`` as rule ids; a name may be a severity (``note``: every rule of it)."""
    chosen: set[str] = set()
    unknown: list[str] = []
    for name in names:
        if name in SEVERITIES:
            chosen.update(rule.id for rule in RULES if rule.severity == name)
        elif name in RULES_BY_ID:
            chosen.add(name)
        else:
            unknown.append(name)
    if unknown:
        raise CheckUsageError(f"no finding code {', '.join(map(repr, unknown))} (known: "
                              f"{', '.join(RULES_BY_ID)}, or a severity: "
                              f"{', '.join(SEVERITIES)})")
    return frozenset(chosen)


def selected_rules(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> frozenset[str]:
    """The rules to run: those of ``select`` (every rule when empty) but those of ``ignore``."""
    chosen = rule_ids(select) or frozenset(RULES_BY_ID)
    return chosen - rule_ids(ignore)


def fails(finding: Finding, fail_on: str) -> bool:
    """Whether ``finding`` makes the check fail when it fails on ``fail_on`` and worse."""
    return SEVERITIES.index(finding.severity) <= SEVERITIES.index(fail_on)
