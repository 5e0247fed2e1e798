"""Zotero's Extra field: the lines Zotero, citeproc-js and Better BibTeX read in it.

Extra is free text, but some of its lines are data, and Zotero moves the whole text from format
to format: Extra in Zotero RDF and Zotero's API, ``note`` in Zotero's CSL JSON export, ``note``
in its BibTeX export. So every reader of those slots reads the same lines:

- ``Citation Key: KEY``: the citation key (Zotero's CSL JSON and BibTeX exports and Better
  BibTeX take it as the item's key);
- ``variable: value``: a CSL variable, the "cheater syntax" of citeproc-js (Zotero's CSL export
  writes ``Original Date: 1968`` as ``original-date: 1968``; both are read);
- ``tex.field: value``: a .bib field Zotero has no field for, as Better BibTeX writes and
  reads it (``tex.crossref: knuth:tex``);
- ``refbridge: {...}``: refbridge's residue (``formats.residue``), what no line above carries;
- any other line: text (the record's note).

``extra_text`` writes the lines in an order citeproc-js reads: the key, then the variables (it
reads a block of ``variable: value`` lines at the start of a note), then the .bib fields and the
residue, then the note. This module must never know a file format's own syntax.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from refbridge.formats.bibtex.tables import FIELD_EXTRAS
from refbridge.formats.residue import RESIDUE_LABEL, dump, load
from refbridge.vocab import DATE_VARIABLE_SET, TEXT_VARIABLE_SET

#: The label of the citation-key line (Better BibTeX's; Zotero's exporters read it too).
CITATION_KEY_LABEL = "Citation Key"
#: The prefix of a .bib field's line (Better BibTeX's).
TEX_PREFIX = "tex."
#: CSL variables whose Extra line citeproc-js and Zotero spell in capitals.
_UPPER_VARIABLES = {name.lower(): name for name in TEXT_VARIABLE_SET if name.isupper()}
#: What a line of CSL data may name: text and date variables, and the item type.
_VARIABLES = TEXT_VARIABLE_SET | DATE_VARIABLE_SET | {"type"}
#: Variables never read from a line: the note is the text itself.
_NOT_FROM_LINES = frozenset({"note"})

_CITATION_KEY_LINE = re.compile(r"^\s*citation[ -]?key\s*:\s*(?P<key>\S+)\s*$", re.IGNORECASE)
_TEX_LINE = re.compile(r"^tex\.(?P<field>[A-Za-z][\w:.+-]*)\s*:\s?(?P<value>.*)$")
#: ``Original Date: 1968`` (Zotero's label) or ``original-date: 1968`` (CSL's name).
_VARIABLE_LINE = re.compile(r"^(?P<label>[A-Za-z][A-Za-z _-]*)\s*:\s*(?P<value>.*\S)\s*$")
_RESIDUE_PREFIX = RESIDUE_LABEL + ":"


def variable_of(label: str) -> str | None:
    """The CSL variable a line's label names (``Original Date``, ``original-date``, ``DOI``),
    normalised as Zotero does (capitals split, spaces and underscores made hyphens)."""
    key = re.sub(r"([a-z])([A-Z])", r"\1-\2", label.strip())
    key = re.sub(r"[\s_-]+", "-", key.lower())
    key = _UPPER_VARIABLES.get(key, "archive_location" if key == "archive-location" else key)
    return key if key in _VARIABLES and key not in _NOT_FROM_LINES else None


@dataclass(slots=True)
class ExtraFields:
    """What the lines of an Extra text hold."""

    citation_key: str | None = None
    #: CSL variables of ``variable: value`` lines, as text (dates as written); the first line
    #: of a variable wins, as in Zotero
    variables: dict[str, str] = field(default_factory=dict)
    #: .bib fields of ``tex.field: value`` lines
    tex: dict[str, str] = field(default_factory=dict)
    #: the residue of the ``refbridge:`` lines, merged
    residue: dict[str, Any] = field(default_factory=dict)
    #: the other lines, or None when they are blank
    text: str | None = None

    def holds_data(self) -> bool:
        """Whether a line gave a key, a variable, a .bib field or a residue."""
        return bool(self.citation_key or self.variables or self.tex or self.residue)


def _residue_of(line: str) -> dict[str, Any] | None:
    if not line.startswith(_RESIDUE_PREFIX):
        return None
    try:
        return load(line[len(_RESIDUE_PREFIX):].strip())
    except ValueError:
        return None


def read_extra(text: str, variables: bool = True) -> ExtraFields:
    """The data lines of an Extra text (or of a note that was one) and its other text. With
    ``variables`` false, ``variable: value`` lines stay text (a format whose note is no Extra)."""
    found = ExtraFields()
    rest: list[str] = []
    for line in text.split("\n"):
        if found.citation_key is None and (key := _CITATION_KEY_LINE.match(line)):
            found.citation_key = key["key"]
        elif (tex := _TEX_LINE.match(line)) and tex["value"].strip():
            found.tex.setdefault(tex["field"].lower(), tex["value"].strip())
        elif (difference := _residue_of(line)) is not None:
            found.residue.update(difference)
        elif variables and (match := _VARIABLE_LINE.match(line)) and (
                variable := variable_of(match["label"])) and variable not in found.variables:
            found.variables[variable] = match["value"]
        else:
            rest.append(line)
    joined = "\n".join(rest).strip("\n")
    found.text = joined if joined.strip() else None
    return found


def is_plain_note(note: str) -> bool:
    """Whether ``note`` reads back as itself from Extra (no line of it reads as data)."""
    fields = read_extra(note)
    return fields.text == note and not fields.holds_data()


def extra_text(citation_key: str | None = None, variables: Mapping[str, str] | None = None,
               tex: Mapping[str, str] | None = None, residue: Mapping[str, Any] | None = None,
               note: str | None = None, lines: tuple[str, ...] = ()) -> str | None:
    """The Extra text of these data (``lines``: more data lines, after the variables), or
    None when there is nothing to write."""
    out: list[str] = []
    if citation_key:
        out.append(f"{CITATION_KEY_LABEL}: {citation_key}")
    out += [f"{name}: {value}" for name, value in (variables or {}).items()]
    out += list(lines)
    out += [f"{TEX_PREFIX}{name}: {value}" for name, value in (tex or {}).items()]
    if residue:
        out.append(f"{RESIDUE_LABEL}: {dump(residue)}")
    if note:
        out.append(note)
    return "\n".join(out) if out else None


def fits_a_line(value: str) -> bool:
    """Whether ``value`` reads back whole from a ``name: value`` line."""
    return bool(value) and "\n" not in value and value == value.strip() and "\r" not in value


def tex_extras(tex: Mapping[str, str]) -> dict[str, str]:
    """The extras of the .bib fields of ``tex.`` lines: ``bibtex.<field>``, or the extra a
    field of that name keeps (``profile-owner``: ``profile.owner``)."""
    return {FIELD_EXTRAS.get(name, "bibtex." + name): value for name, value in tex.items()}


def key_and_fields(note: str) -> tuple[str | None, dict[str, str]] | None:
    """The citation key and the extras of a note made only of ``Citation Key:`` and
    ``tex.field:`` lines (as a citation manager exports Extra into a note), else None."""
    found = read_extra(note, variables=False)
    if found.text is not None or found.residue or not (found.citation_key or found.tex):
        return None
    return found.citation_key, tex_extras(found.tex)


def residue_note(lines: list[str]) -> ExtraFields | None:
    """The Extra that the lines of a note are, when one of them is a residue that refbridge
    wrote (the sign that the note is an Extra: Zotero's BibTeX export writes Extra as the
    entry's note); else None, and the note is the user's text."""
    if not any(line.startswith(_RESIDUE_PREFIX) and _residue_of(line) for line in lines):
        return None
    return read_extra("\n".join(lines))
