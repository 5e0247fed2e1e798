"""Nothing a tagged reader sees is lost: every tag of RIS, EndNote's tagged format, MEDLINE and
Web of Science (the lists in their tables) is mapped to a model part, or kept as a
``FORMAT.TAG`` extra that the format's writer gives back, or reported with a warning naming
the file and line."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from refbridge.errors import Diagnostics
from refbridge.formats.csljson import to_csl
from refbridge.formats.tagged import (
    endnote,
    endnote_tables,
    medline,
    medline_tables,
    ris,
    ris_tables,
    wos,
    wos_tables,
)
from refbridge.model import Record

#: The value every tag is given: a name, a date, a title and a number may all hold it.
VALUE = "Zqx 2020"


@dataclass(frozen=True)
class Format:
    name: str  #: the prefix of its extras
    tags: frozenset[str]
    record: Callable[[str], str]  #: the text of a record holding one tag
    read: Callable[[str, Diagnostics], list[Record]]
    write: Callable[[Record], str] | None  #: None: the format has no writer
    line: int  #: the line of the tag in ``record``


def _ris(tag: str) -> str:
    return f"TY  - JOUR\n{tag}  - {VALUE}\nER  - \n"


def _endnote(tag: str) -> str:
    return f"%0 Journal Article\n%{tag} {VALUE}\n"


def _nbib(tag: str) -> str:
    return f"TI  - Title\n{tag:<4}- {VALUE}\n"


def _wos(tag: str) -> str:
    return f"PT J\n{tag} {VALUE}\nER\n"


def _reader(module: object) -> Callable[[str, Diagnostics], list[Record]]:
    reader = module.READER  # type: ignore[attr-defined]
    return lambda text, diagnostics: list(reader.read(io.StringIO(text), "refs", diagnostics))


FORMATS = [
    Format("ris", ris_tables.KNOWN_TAGS, _ris, _reader(ris), ris.format_record, 2),
    Format("endnote", endnote_tables.KNOWN_TAGS, _endnote, _reader(endnote),
           endnote.format_record, 2),
    Format("nbib", medline_tables.KNOWN_TAGS, _nbib, _reader(medline), medline.format_record,
           2),
    Format("wos", wos_tables.KNOWN_TAGS - {"PT", "ER", "EF", "FN", "VR"}, _wos, _reader(wos),
           None, 2),
]
CASES = [(f, tag) for f in FORMATS for tag in sorted(f.tags)]


def _mapped(record: Record, format_name: str) -> bool:
    """Whether ``VALUE`` is in a model part other than the format's extras."""
    item = to_csl(record)
    item.get("custom", {}).pop("extra", None)
    return all(word in json.dumps(item, ensure_ascii=False) for word in VALUE.split())


@pytest.mark.parametrize(("fmt", "tag"), CASES, ids=[f"{f.name}-{t}" for f, t in CASES])
def test_every_known_tag_is_mapped_kept_or_reported(fmt: Format, tag: str) -> None:
    diagnostics = Diagnostics()
    (record,) = fmt.read(fmt.record(tag), diagnostics)
    # kept as the tag's extra (a date's parts that no date holds: as the date's extra)
    kept = next((v for k, v in record.extra.items()
                 if k.startswith(f"{fmt.name}.") and VALUE in v), None)
    reported = [m for m in diagnostics.messages if m.line == fmt.line]
    assert _mapped(record, fmt.name) or kept is not None or reported, (
        f"{fmt.name} {tag}: the value is lost")
    if kept is not None and fmt.write is not None:
        written = fmt.write(record)
        assert VALUE in written, f"{fmt.name} {tag}: the writer drops the kept value"

