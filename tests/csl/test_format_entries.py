"""Formatted bibliographies entry by entry: any character of record text renders as itself, and
an entry the engine fails on is named in the one-line error."""

from __future__ import annotations

import pytest
from support import compiled

import refbridge.csl.processor
from refbridge.csl.processor import Processor
from refbridge.errors import EntryFailed
from refbridge.formatting import format_bibliography
from refbridge.model import Date, Name, Record
from refbridge.richtext import Styled, rich


def article(key: str, title: object, family: str = "Smith") -> Record:
    return Record(id=key, type="article-journal",
                  fields={"title": title, "container-title": "Journal of Tests"},
                  names={"author": (Name(family=family, given="Jane"),)},
                  dates={"issued": Date.of(2020)})


def test_private_use_characters_of_a_title_render_as_themselves() -> None:
    # U+F0B7 is the bullet a PDF's copied text holds; U+F8FF Apple's logo; U+E000 the first one
    title = rich(["Bullets \uf0b7 and \ue000 in \uf8ff ", Styled("italic", ("copied",)), " <text>"])
    assert format_bibliography([article("smith2020", title)], "apa") == (
        "Smith, J. (2020). Bullets \uf0b7 and \ue000 in \uf8ff copied <text>. Journal of Tests.\n")


@pytest.mark.skipif(compiled(refbridge.csl.processor),
                    reason="patches the CSL processor, which the compiled build makes native "
                           "(the pure-Python run checks it)")
def test_an_entry_the_engine_fails_on_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = Processor._entry

    def failing(self: Processor, section: object, ctx: object, second_field: bool) -> object:
        if ctx.item["id"] == "doe2021":  # type: ignore[attr-defined]
            raise IndexError("list index out of range")
        return entry(self, section, ctx, second_field)  # type: ignore[arg-type]

    monkeypatch.setattr(Processor, "_entry", failing)
    records = [article("smith2020", "One title"), article("doe2021", "Another title", "Doe")]
    with pytest.raises(EntryFailed) as failed:
        format_bibliography(records, "apa")
    assert str(failed.value) == ("entry 'doe2021': internal error: IndexError: list index out of "
                                 "range (set REFBRIDGE_DEBUG=1 for details)")
