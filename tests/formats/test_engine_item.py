"""A record as the CSL engine's item (``formats.csljson.engine_item``), the one owner of record
<-> CSL item beside ``to_csl`` and ``from_csl``; and ``refbridge format``'s one pass from
options to a request (the locale checked once, by ``FormatRequest``)."""

from __future__ import annotations

import pytest

from refbridge.formats.csljson import engine_item, from_csl, to_csl
from refbridge.richtext import RichText, Styled
from refbridge.styles.definitions import FormatRequest
from refbridge.styles.locales import UnknownLocale

PAPER = {"id": "qian2024", "type": "paper-conference", "title": "On <i>Drosophila</i> wings",
         "event": "SIGMOD 2024", "issued": {"date-parts": [[2024]]}}


def test_the_engine_item_holds_the_models_rich_text() -> None:
    assert engine_item(from_csl(PAPER))["title"] == RichText(
        ("On ", Styled("italic", ("Drosophila",)), " wings"))


def test_the_item_of_a_file_holds_csl_markup() -> None:
    assert to_csl(from_csl(PAPER))["title"] == "On <i>Drosophila</i> wings"


def test_the_engine_item_gives_a_written_alias_back_as_written() -> None:
    item = engine_item(from_csl(PAPER))
    assert (item["event"], "event-title" in item) == ("SIGMOD 2024", False)


def test_the_engine_item_gives_a_name_list_kept_as_written_back() -> None:
    written = [{"family": "Qian", "given": "Zhengping", "parse-names": True}]
    record = from_csl({"id": "b", "type": "book", "title": "Graphs", "author": written},
                      warn=lambda message: None)
    assert engine_item(record)["author"] == written


def test_a_cvs_item_is_the_item_of_a_file() -> None:
    record = from_csl(PAPER)
    assert engine_item(record, rich=False, as_written=False) == to_csl(record)


def test_a_request_refuses_a_locale_the_files_do_not_speak() -> None:
    with pytest.raises(UnknownLocale, match="unknown locale 'xx-YY'"):
        FormatRequest("text", "xx-YY")
