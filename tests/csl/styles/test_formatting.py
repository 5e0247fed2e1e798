"""format_bibliography: documents per output, citations, name highlighting, CV ordering."""

from __future__ import annotations

from pathlib import Path

import pytest

from refbridge.errors import RefbridgeError
from refbridge.formatting import as_items, format_bibliography, name_matcher
from refbridge.styles.definitions import NewestFirst, order_newest_first

#: a style module whose formatter writes "title (id)" entries and "(id)" citations
ECHO_STYLE_MODULE = '''
from dataclasses import dataclass
from refbridge.styles.definitions import FormatterStyleDefinition


@dataclass
class Echo:
    items: list

    def bibliography(self):
        return [f"{item['title']} ({item['id']})" for item in self.items]

    def bibliography_ids(self):
        return [item["id"] for item in self.items]

    def cite(self, cites):
        return "(" + "; ".join(cite["id"] for cite in cites) + ")"


STYLES = [FormatterStyleDefinition("echo", "Echo", lambda items, request: Echo(list(items)))]
'''
ITEMS = [
    {"id": "old", "type": "book", "title": "Old book", "issued": {"date-parts": [[1999]]}},
    {"id": "new", "type": "book", "title": "New book", "issued": {"date-parts": [[2024, 5]]}},
    {"id": "soon", "type": "book", "title": "In press"},
]


@pytest.fixture
def echo_dir(tmp_path: Path) -> Path:
    (tmp_path / "echo.py").write_text(ECHO_STYLE_MODULE, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("output", "document"), [
    ("text", "Old book (old)\nNew book (new)\nIn press (soon)\n"),
    ("html", ('<div class="csl-bib-body">\n  Old book (old)\n  New book (new)\n'
             "  In press (soon)\n</div>\n")),
    ("markdown", "Old book (old)\n\nNew book (new)\n\nIn press (soon)\n"),
    ("latex", "Old book (old)\n\nNew book (new)\n\nIn press (soon)\n"),
    ("rtf", ("{\\rtf1\\ansi\\deff0\nOld book (old)\\par\nNew book (new)\\par\n"
            "In press (soon)\\par\n}\n")),
])
def test_bibliography_document_per_output(echo_dir: Path, output: str, document: str) -> None:
    assert format_bibliography(ITEMS, "echo", output, style_dirs=[echo_dir]) == document


def test_citations_are_one_per_item_in_input_order(echo_dir: Path) -> None:
    assert format_bibliography(ITEMS, "echo", cite=True, style_dirs=[echo_dir]) == \
        "(old)\n(new)\n(soon)\n"


def test_no_items_make_an_empty_document(echo_dir: Path) -> None:
    assert format_bibliography([], "echo", "html", style_dirs=[echo_dir]) == ""


def test_unknown_output_is_refused() -> None:
    with pytest.raises(RefbridgeError, match="unknown output 'pdf'"):
        format_bibliography(ITEMS, "plain", "pdf")


def test_items_without_id_are_numbered() -> None:
    assert [item["id"] for item in as_items([{"type": "book"}, {"id": 7, "type": "book"}])] == \
        ["item-1", "7"]


@pytest.mark.parametrize(("pattern", "name", "matches"), [
    ("Qian", {"family": "Qian", "given": "Zhengping"}, True),
    ("qian, z", {"family": "Qian", "given": "Zhengping"}, True),
    ("Qian, Y", {"family": "Qian", "given": "Zhengping"}, False),
    ("Meer", {"family": "Meer", "given": "Jan", "non-dropping-particle": "van der"}, True),
    ("van der Meer, J", {"family": "Meer", "given": "Jan", "non-dropping-particle": "van der"},
     True),
    ("World Health Organization", {"literal": "World Health Organization"}, True),
    ("Kowalski", {"family": "Nowak", "given": "Łukasz"}, False),
])
def test_highlight_pattern_matches_names(pattern: str, name: dict[str, str],
                                         matches: bool) -> None:
    assert name_matcher(pattern)(name) is matches


def test_newest_first_puts_undated_items_first_then_by_date() -> None:
    assert [item["id"] for item in order_newest_first(ITEMS)] == ["soon", "new", "old"]


class _AlphabeticalProcessor:
    """A processor that sorts by title, the way author-date styles sort by author."""

    def __init__(self) -> None:
        self.order = sorted(ITEMS, key=lambda item: item["title"])

    def bibliography(self) -> list[str]:
        return [item["title"] for item in self.order]

    def bibliography_ids(self) -> list[str]:
        return [item["id"] for item in self.order]

    def cite(self, cites: list[dict[str, str]]) -> str:
        return cites[0]["id"]


def test_newest_first_reorders_a_sorted_bibliography() -> None:
    processor = NewestFirst(_AlphabeticalProcessor(), ITEMS)
    assert processor.bibliography() == ["In press", "New book", "Old book"]
    assert processor.bibliography_ids() == ["soon", "new", "old"]
