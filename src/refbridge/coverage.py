"""Which parts of the citation model each format carries, and where the rest goes.

Every writer that round-trips declares a ``Coverage`` built from its own mapping tables (its
module's ``COVERAGE``, named by the writer's registration in ``formats.catalogue``), so the table
in ``docs/field-coverage.md`` and the round-trip property tests read the same data.
``python -m refbridge.tools.regenerate`` writes that document. Two are built here: CSL-JSON's (the
model's own vocabulary, which carries every part) and the .bib dialects' (derived from
``formats.bibtex.tables``). A writer of another package may declare one as its ``coverage``
attribute. This module must never read or write records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import cast

from refbridge.vocab import DATE_VARIABLES, NAME_VARIABLES, TEXT_VARIABLES

#: Parts of a record that are not CSL variables.
RECORD_PARTS: tuple[str, ...] = (
    "type", "citation-key", "keywords", "eprint", "incomplete-names", "extra")

#: Every part of the model, in the order of the coverage table.
MODEL_PARTS: tuple[str, ...] = RECORD_PARTS + TEXT_VARIABLES + NAME_VARIABLES + DATE_VARIABLES


@dataclass(frozen=True, slots=True)
class Coverage:
    """Where one format puts each model part.

    ``native``: parts the format's own syntax holds (part -> tag, field or element).
    ``elsewhere``: parts it holds only in a free-text slot (part -> that slot).
    Parts in neither are lost when writing this format.
    """

    format: str
    native: Mapping[str, str]
    elsewhere: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  #: what the table cannot say (name and date detail, ...)
    #: When ``type`` is carried: the CSL item types that come back as themselves (None: all).
    kept_types: frozenset[str] | None = None

    def __post_init__(self) -> None:
        unknown = (set(self.native) | set(self.elsewhere)) - set(MODEL_PARTS)
        if unknown:
            raise ValueError(f"{self.format}: not model parts: {sorted(unknown)}")

    @property
    def carried(self) -> frozenset[str]:
        """Parts a round trip through this format gives back unchanged."""
        return frozenset(self.native) | frozenset(self.elsewhere)

    @property
    def lost(self) -> tuple[str, ...]:
        return tuple(p for p in MODEL_PARTS if p not in self.carried)

    def keeps_type(self, item_type: str) -> bool:
        return "type" in self.carried and (self.kept_types is None
                                           or item_type in self.kept_types)

    def cell(self, part: str) -> str:
        if part == "type" and self.kept_types is not None and part in self.native:
            return (f"`{self.native[part]}` ({len(self.kept_types)} CSL types; "
                    "the others are lost)")
        if part in self.native:
            return f"`{self.native[part]}`"
        if part in self.elsewhere:
            return f"via {self.elsewhere[part]}"
        return "lost"


CSL_JSON = Coverage(
    format="csl-json",
    native={**{p: p for p in TEXT_VARIABLES + NAME_VARIABLES + DATE_VARIABLES},
            "type": "type", "citation-key": "id", "keywords": "keyword",
            "eprint": "custom.eprint", "incomplete-names": "custom.incomplete-names",
            "extra": "custom.extra"},
    notes=("Every model part is a CSL-JSON key or a key of the schema's `custom` object.",),
)

def bibtex_coverage(dialect: str) -> Coverage:
    """The coverage of a .bib dialect, derived from the tables its reader and writer share."""
    from refbridge.formats.bibtex import tables

    native: dict[str, str] = {}
    for table in (tables.TEXT_FIELDS, tables.NAME_FIELDS, tables.DATE_FIELDS,
                  tables.YEAR_FIELDS):
        for bib_field, part in table.items():
            native.setdefault(part, tables.WRITE_FIELD[dialect].get(part, bib_field))
    native |= {"type": "@entrytype", "citation-key": "entry key",
               "keywords": "keywords", "eprint": "eprint, archivePrefix, primaryClass",
               "incomplete-names": "and others"}
    entries = tables.CSL_TO_ENTRY[dialect]
    return Coverage(
        format=dialect,
        native=native,
        kept_types=frozenset(t for t, e in entries.items() if tables.ENTRY_TO_CSL.get(e) == t),
        notes=(
            ("Derived from `refbridge.formats.bibtex.tables`: the fields the reader maps to a "
            "model part in every entry type (fields whose meaning depends on the entry type, "
            "such as `number`, are left out). CSL types without an entry type of their own "
            "are written as the nearest entry type and read back as that type."),
            ("Runs of white space in a value become one space; a name's particles are spelled "
            "as BibTeX's `von` part, so dropping and non-dropping particles are not told "
            "apart; a keyword containing a comma or semicolon is written in braces (one "
            "keyword for biber and for the reader); a thesis "
            "or report without a genre gets the one its entry type implies (`@phdthesis`, "
            "`@techreport`), and a preprint without a URL gets its arXiv abstract page."),
            "Extra fields of other formats are lost (`bibtex.*` extras are written back).",
        ),
    )


def coverage_of(writer_name: str) -> Coverage | None:
    """The declared coverage of a registered writer, or None when it declares none."""
    from refbridge.entrypoints import EntryPoint
    from refbridge.formats.catalogue import WRITERS
    from refbridge.registry import get_writer

    known = WRITERS.get(writer_name)
    if known is not None and known.coverage is not None:
        return cast(Coverage, EntryPoint(writer_name, known.coverage, "coverage").load())
    found: Coverage | None = getattr(get_writer(writer_name), "coverage", None)
    return found


def declared_coverages() -> list[Coverage]:
    """The coverage of every registered writer that declares one, by format name."""
    from refbridge.registry import writer_names

    return [c for name in writer_names() if (c := coverage_of(name)) is not None]


def markdown(coverages: Iterable[Coverage]) -> str:
    """The field-coverage document: one table, a row per model part, a column per format."""
    columns = list(coverages)
    lines = [
        "# Field coverage",
        "",
        "Which parts of the citation model each output format carries. `tag` means the",
        "format's own syntax holds the part; *via …* names the free-text slot that holds it",
        "instead (still read back by refbridge); *lost* means writing this format drops it.",
        "Generated by `python -m refbridge.tools.regenerate` from the formats' own mapping",
        "tables; the round-trip property tests (`tests/test_roundtrip_properties.py`) check",
        "the same tables.",
        "",
        "| model part | " + " | ".join(c.format for c in columns) + " |",
        "| --- | " + " | ".join("---" for _ in columns) + " |",
    ]
    for part in MODEL_PARTS:
        lines.append(f"| {part} | " + " | ".join(c.cell(part) for c in columns) + " |")
    for coverage in columns:
        if coverage.notes:
            lines += ["", f"## {coverage.format}", ""]
            lines += [f"- {note}" for note in coverage.notes]
    return "\n".join(lines) + "\n"

