"""Library lint: what ``refbridge check`` reports about records that read without error.

The rules (``rules.RULES``: stable ids, severities) look at records on the model
(``duplicates``, ``requirements``, ``values``) and, for a .bib, at its entries as written
(``bibfile``: ``integrity`` in the manner of JabRef's checks, ``datamodel`` with biblatex's
own data model table and BibTeX's rules); ``fixes`` writes the safe repairs back into a .bib,
every other byte unchanged, and ``report`` prints findings as text, JSON, SARIF or GitHub
annotations. This package must never change a record; only ``fixes`` writes a file, and
only when asked.
"""

from __future__ import annotations

from refbridge.check.requirements import REQUIREMENTS
from refbridge.check.rules import RULES, CheckUsageError, Finding, Fix, Rule
from refbridge.check.run import CheckOptions, check_files, check_records

#: every finding code, for ``--select`` and ``--ignore``
CODES: tuple[str, ...] = tuple(rule.id for rule in RULES)

__all__ = ["CODES", "REQUIREMENTS", "RULES", "CheckOptions", "CheckUsageError", "Finding",
           "Fix", "Rule", "check_files", "check_records"]
