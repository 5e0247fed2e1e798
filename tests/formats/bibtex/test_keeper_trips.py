"""A .bib's text that is no entry survives a trip through another format (issue 41).

``%`` lines, free text, ``@comment`` (JabRef's groups among them), ``@preamble`` and
``@string`` blocks ride where each format carries what it has no field for: CSL-JSON's
``custom.hints``, the residue (``refbridge: {…}``) in an RIS note, Zotero's Extra and a
Hayagriva entry's ``refbridge`` key. A .bib written after the trip has them byte for byte, in
their place among the entries, under the same keys. A ``@preamble`` whose LaTeX could do harm
does not come back from another format, where it was data; the rest of the text does.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.writer import BIBTEX_WRITER
from refbridge.model import Record
from refbridge.registry import WriteOptions, get_reader, get_writer

from .test_bibtex_keeper import BLOCKS, KEYS, LIBRARY, entry_keys, read, texts_between_entries

#: The formats of the trips (``zotero``: Zotero RDF).
TRIPS = pytest.mark.parametrize("via", ["csl-json", "ris", "hayagriva", "zotero"])


def there(records: list[Record], via: str) -> str:
    out = io.StringIO()
    get_writer(via).write(records, out, WriteOptions())
    return out.getvalue()


def back(text: str, via: str, diagnostics: Diagnostics | None = None) -> list[Record]:
    return list(get_reader(via).read(io.StringIO(text), f"refs.{via}",
                                     diagnostics or Diagnostics()))


def bib(records: list[Record]) -> str:
    out = io.StringIO()
    BIBTEX_WRITER.write(records, out, WriteOptions())
    return out.getvalue()


def trip(library: str, via: str) -> str:
    """The .bib written from ``library`` read, written in ``via`` and read back."""
    return bib(back(there(read(library), via), via))


# -- examples --------------------------------------------------------------------------------
@TRIPS
def test_a_jabref_library_keeps_its_text_and_groups(via: str) -> None:
    result = trip(LIBRARY, via)
    assert texts_between_entries(result) == texts_between_entries(LIBRARY)
    assert entry_keys(result) == ["O'Hara_1999", "smith~20"]


#: A library whose comment line names LaTeX (no tool runs it) and whose preamble defines a
#: command (as a preamble may).
COMMENTED = """\
%%% add \\usepackage[utf8]{inputenc} to your latex preamble
@preamble{"\\providecommand{\\noopsort}[1]{}"}

@article{lee2021,
  title = {Tides},
}
"""


@TRIPS
def test_latex_in_a_comment_line_and_a_definition_in_a_preamble_come_back(via: str) -> None:
    assert trip(COMMENTED, via).startswith(COMMENTED.split("\n\n")[0] + "\n\n@article{lee2021,")


HARMFUL = """\
% kept
@preamble{"\\input{/etc/passwd}"}
@string{jcp = {J. Chem. Phys.}}

@article{lee2021,
  title = {Tides},
}
"""


@TRIPS
def test_a_preamble_that_reads_a_file_does_not_come_back_from_another_format(via: str) -> None:
    diagnostics = Diagnostics()
    result = bib(back(there(read(HARMFUL), via), via, diagnostics))
    assert result == ("% kept\n\n@string{jcp = {J. Chem. Phys.}}\n\n"
                      "@article{lee2021,\n  title = {Tides},\n}\n")
    assert [m.message for m in diagnostics.messages] == [
        (f"{'entry' if via == 'hayagriva' else 'record'} 'lee2021': custom.hints "
         "bibtex.before: a @preamble or @string runs LaTeX that may be harmful; left out")]


def test_text_that_would_join_into_a_harmful_preamble_without_one_is_left_out() -> None:
    item = {"id": "k", "type": "book", "title": "T", "custom": {"hints": {
        "bibtex.before": '@pre@preamble{"\\input a"}amble{"\\input b"}'}}}
    [record] = back(json.dumps([item]), "csl-json")
    assert "bibtex.before" not in record.hints


def test_zotero_keeps_the_text_as_a_line_of_extra_and_the_title_as_it_is() -> None:
    rdf_text = there(read("% Encoding: UTF-8\n\n@book{k, title = {Coastal Birds}}\n"),
                     "zotero")
    assert "<dc:title>Coastal Birds</dc:title>" in rdf_text
    assert re.findall(r"<dc:description>(.*?)</dc:description>", rdf_text, re.DOTALL) == [
        ('Citation Key: k\nrefbridge: {"custom": {"hints": {"bibtex.before": '
         '"% Encoding: UTF-8"}}}')]


def test_ris_keeps_the_text_in_the_residue_note() -> None:
    ris_text = there(read("@book{k, title = {Coastal Birds}}\n% groups\n"), "ris")
    assert 'N1  - refbridge: {"custom": {"hints": {"bibtex.after": "% groups"}}}\n' in ris_text


def test_csl_json_keeps_the_text_in_custom_hints() -> None:
    [item] = json.loads(there(read("% Encoding: UTF-8\n\n@book{k, title = {T}}\n"),
                              "csl-json"))
    assert item["custom"]["hints"]["bibtex.before"] == "% Encoding: UTF-8"


# -- properties ------------------------------------------------------------------------------
#: Blocks whose text holds what the formats escape: LaTeX, TABs, quotes, trailing space,
#: characters beyond ASCII.
LATEX_BLOCKS = st.sampled_from([
    "%%% add \\usepackage[utf8]{inputenc} to your latex preamble",
    '@preamble{"\\providecommand{\\noopsort}[1]{#1}"}',
    "@comment{jabref-meta: grouping:\n0 AllEntriesGroup:;\n1 StaticGroup:Küste\\;0\\;1\\;;\n}",
    "% Encoding: UTF-8",
    '@string{ieee = "IEEE \\& {\\"O}sterreich"}',
    "%\ttabbed <b>&amp;</b>   ",
])


@st.composite
def libraries(draw: st.DrawFn) -> str:
    keys = draw(st.lists(KEYS, min_size=1, max_size=5, unique_by=str.lower))
    parts: list[str] = []
    for key in [*keys, None]:
        parts += draw(st.lists(BLOCKS | LATEX_BLOCKS, max_size=3))
        if key is not None:
            parts.append(f"@misc{{{key},\n  title = {{On {len(key)} things}},\n}}")
    return "\n".join(parts) + "\n"


@TRIPS
@settings(max_examples=40, deadline=None)
@given(library=libraries())
def test_non_entry_text_comes_back_after_a_trip(via: str, library: str) -> None:
    result = trip(library, via)
    assert texts_between_entries(result) == texts_between_entries(library)
    assert entry_keys(result) == entry_keys(library)


@TRIPS
def test_an_entry_without_a_key_and_a_repeated_key_come_back_as_they_were(via: str) -> None:
    library = ("% Encoding: UTF-8\n\n@misc{,\n  title = {Untitled notes},\n}\n\n"
               "@misc{dup,\n  title = {Tides},\n}\n\n@misc{dup,\n  title = {Currents},\n}\n")
    result = trip(library, via)
    assert entry_keys(result) == ["", "dup", "dup"]
    assert texts_between_entries(result) == ["% Encoding: UTF-8"]
