"""The coverage of the two .bib dialects (``refbridge.coverage.bibtex_coverage``), as the
catalogue's registrations of the ``bibtex`` and ``biblatex`` writers name it. This module must
never be imported by the reader or the writer (it is for the coverage document and tests)."""

from __future__ import annotations

from refbridge.coverage import Coverage, bibtex_coverage

BIBTEX: Coverage = bibtex_coverage("bibtex")
BIBLATEX: Coverage = bibtex_coverage("biblatex")
