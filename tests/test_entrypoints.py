"""Entry points read straight from entry_points.txt: the same as importlib.metadata gives."""

from __future__ import annotations

import importlib.metadata

import pytest

from refbridge.entrypoints import EntryPoint, entry_points, parse_entry_points

ENTRY_POINTS_TXT = """[console_scripts]
refbridge = refbridge.cli:main

; a comment
[refbridge.readers]
csl-json = refbridge.formats.csljson:READER
bibtex = refbridge.formats.bibtex.reader : READER [fast]
"""


def test_an_entry_points_file_gives_name_value_and_group() -> None:
    assert list(parse_entry_points(ENTRY_POINTS_TXT)) == [
        EntryPoint("refbridge", "refbridge.cli:main", "console_scripts"),
        EntryPoint("csl-json", "refbridge.formats.csljson:READER", "refbridge.readers"),
        EntryPoint("bibtex", "refbridge.formats.bibtex.reader : READER [fast]",
                   "refbridge.readers"),
    ]


def test_loading_imports_the_module_and_ignores_extras() -> None:
    from refbridge.formats import csljson

    entry = EntryPoint("csl-json", "refbridge.formats.csljson : WRITER [speed]",
                       "refbridge.writers")
    assert entry.load() is csljson.WRITER


@pytest.mark.parametrize("group", ["refbridge.readers", "refbridge.writers",
                                   "console_scripts"])
def test_the_installed_entry_points_are_those_importlib_metadata_finds(group: str) -> None:
    expected = sorted((e.name, e.value) for e in importlib.metadata.entry_points(group=group))
    assert sorted((e.name, e.value) for e in entry_points(group)) == expected
