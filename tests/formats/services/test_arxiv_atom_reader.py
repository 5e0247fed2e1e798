"""The arXiv Atom reader: an author's listing from the arXiv API."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import FIXTURES, records_of

from refbridge.errors import ParseError
from refbridge.model import Date, Eprint, Name

SPECIMEN = FIXTURES / "sources" / "qian.arxiv.atom"


def test_each_entry_is_a_preprint_with_versions_and_categories() -> None:
    specdb = records_of(SPECIMEN)[0]
    assert specdb.type == "article"
    assert specdb.title == ("SpecDB: LLM-Generated Customized Databases via Feature-Oriented "
                            "Decomposition")
    assert specdb.authors == (Name(family="Wang", given="Jing"),
                              Name(family="Qian", given="Zhengping"),
                              Name(family="Zhou", given="Ming"))
    assert specdb.eprint == Eprint("arXiv", "2601.00001v2", "cs.DB", ("cs.AI",))
    assert specdb.issued == Date.of(2026, 6, 8)
    assert specdb.extra["arxiv.updated"] == "2026-07-01"
    assert specdb.extra["arxiv.comment"] == "14 pages, 9 figures"


def test_the_journal_reference_is_kept() -> None:
    assert records_of(SPECIMEN)[2].extra["arxiv.journal-ref"] == "Proc. VLDB Endow. 14(9) (2021)"


def test_an_author_query_names_the_owner() -> None:
    assert {r.extra["profile.owner"] for r in records_of(SPECIMEN)} == {"Zhengping Qian"}


def test_an_error_feed_is_an_error_naming_arxivs_message(tmp_path: Path) -> None:
    feed = tmp_path / "error.atom"
    feed.write_text(
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>arXiv Query</title>'
        "<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345</id>"
        "<title>Error</title><summary>incorrect id format for 1234.12345</summary>"
        "<link href=\"http://arxiv.org/api/errors\"/></entry></feed>")
    with pytest.raises(ParseError, match="arXiv reported an error: incorrect id format for "
                                         "1234.12345"):
        records_of(feed)
