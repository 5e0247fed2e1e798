"""A .bib written from a .bib keeps what nobody asked to change (issue 41): every citation key
character for character, and the text that is no entry (``%`` lines, free text, ``@comment``,
``@preamble``, ``@string``, JabRef's ``% Encoding:`` line and ``jabref-meta`` groups) byte for
byte, in its place among the entries, with one job or several.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import SHARED, run_cli

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.reader import READER, kept_text
from refbridge.formats.bibtex.shards import plan_shards
from refbridge.formats.bibtex.syntax import parse_blocks, parse_spans
from refbridge.formats.bibtex.writer import (
    BIBLATEX_WRITER,
    BIBTEX_WRITER,
    KEY_UNSAFE,
    BibtexWriter,
    entry_key,
)
from refbridge.formats.csljson import READER as CSLJSON_READER
from refbridge.model import Record
from refbridge.parallel import convert_in_parallel
from refbridge.pipeline import convert
from refbridge.registry import WriteOptions
from refbridge.runs import ReadOptions

DIALECTS = pytest.mark.parametrize("writer", [BIBTEX_WRITER, BIBLATEX_WRITER],
                                   ids=["bibtex", "biblatex"])

#: A JabRef library: its encoding line, a preamble, a macro, comments of three tools between
#: the entries, free text, and its groups after the last entry.
LIBRARY = """\
% Encoding: UTF-8

@Preamble{"\\newcommand{\\noop}[1]{}"}

@String{jcp = {J. Chem. Phys.}}

@article{O'Hara_1999,
  author = {O'Hara, Maeve},
  title = {Tidal Pools},
  journal = jcp,
  year = {1999}
}

% checked against the printed volume
Free text that bibtex skips.
@comment{BibDesk Static Groups{
<key>group name</key>
}}

@book{smith~20,
  title = {Coastal Birds},
  publisher = {Harbour Press},
  year = {2020}
}

@comment{jabref-meta: databaseType:bibtex;}

@comment{jabref-meta: grouping:
0 AllEntriesGroup:;
1 StaticGroup:Shore\\;0\\;1\\;\\;\\;\\;;
}
"""


def read(text: str) -> list[Record]:
    return list(READER.read(io.StringIO(text), "refs.bib", Diagnostics()))


def written(text: str, writer: BibtexWriter) -> str:
    out = io.StringIO()
    writer.write(read(text), out, WriteOptions())
    return out.getvalue()


def kept_blocks(text: str) -> list[str]:
    """The non-entry blocks of a .bib, as written, in order."""
    return [text[s.start:s.end] for s in parse_spans(text, {}) if s.block.kind != "entry"]


def entry_keys(text: str) -> list[str]:
    return [s.block.key for s in parse_spans(text, {}) if s.block.kind == "entry"]


# -- keys ------------------------------------------------------------------------------------
@DIALECTS
def test_apostrophe_tilde_and_hyphen_keys_stay_three_keys(writer: BibtexWriter) -> None:
    text = written("@misc{smith'20, title={A}}\n@misc{smith~20, title={B}}\n"
                   "@misc{smith-20, title={C}}\n", writer)
    assert entry_keys(text) == ["smith'20", "smith~20", "smith-20"]


def test_a_jabref_key_with_an_apostrophe_is_converted_as_it_was(tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text("@article{O'Hara_1999,\n  title = {Tidal Pools},\n}\n", encoding="utf-8")
    status, out, _ = run_cli("convert", str(library), "--to", "bibtex")
    assert (status, out) == (0, "@article{O'Hara_1999,\n  title = {Tidal Pools},\n}\n")


def test_biber_readers_hear_of_an_apostrophe_in_a_key() -> None:
    diagnostics = Diagnostics()
    list(READER.read(io.StringIO("@misc{O'Hara_1999, title={A}}\n"), "refs.bib", diagnostics))
    assert [str(m) for m in diagnostics.messages] == [
        ("refs.bib:1: warning: the key \"O'Hara_1999\" holds an apostrophe: bibtex reads it; "
        "biber cuts the key short there or stops with a syntax error; written back as it is")]


def test_a_key_of_another_format_keeps_every_character_a_bib_key_holds() -> None:
    record = Record(id="x", type="book", citation_key="Müller:2020/a+b.c~d'e(f)%g",
                    fields={"title": "T"})
    assert entry_key(record) == "Müller:2020/a+b.c~d'e(f)%g"


def test_what_a_bib_key_cannot_hold_is_what_the_writers_tell_the_pipeline() -> None:
    record = Record(id="x", type="book", citation_key="Smith 2020,{a}=\"b\"#c\\d",
                    fields={"title": "T"})
    assert (entry_key(record), BIBTEX_WRITER.key_unsafe, BIBLATEX_WRITER.key_unsafe) == (
        "Smith-2020--a---b--c-d", KEY_UNSAFE, KEY_UNSAFE)


# -- the text that is no entry ---------------------------------------------------------------
@DIALECTS
def test_every_non_entry_block_comes_back_in_its_place(writer: BibtexWriter) -> None:
    text = written(LIBRARY, writer)
    assert text.startswith('% Encoding: UTF-8\n\n@Preamble{"\\newcommand{\\noop}[1]{}"}\n\n'
                           "@String{jcp = {J. Chem. Phys.}}\n\n@article{O'Hara_1999,\n")
    assert "  year = {1999},\n}\n\n% checked against the printed volume\nFree text that " \
        "bibtex skips.\n@comment{BibDesk Static Groups{\n<key>group name</key>\n}}\n\n" \
        "@book{smith~20,\n" in text
    assert text.endswith("  year = {2020},\n}\n\n@comment{jabref-meta: databaseType:bibtex;}\n\n"
                         "@comment{jabref-meta: grouping:\n0 AllEntriesGroup:;\n"
                         "1 StaticGroup:Shore\\;0\\;1\\;\\;\\;\\;;\n}\n")


@DIALECTS
def test_the_blocks_written_are_the_blocks_read(writer: BibtexWriter) -> None:
    assert kept_blocks(written(LIBRARY, writer)) == kept_blocks(LIBRARY)


def test_groups_after_the_last_entry_are_kept_with_it() -> None:
    last = read(LIBRARY)[-1]
    assert last.hints["bibtex.after"] == (
        "@comment{jabref-meta: databaseType:bibtex;}\n\n@comment{jabref-meta: grouping:\n"
        "0 AllEntriesGroup:;\n1 StaticGroup:Shore\\;0\\;1\\;\\;\\;\\;;\n}")


def test_text_with_harmful_latex_from_csl_json_is_not_written() -> None:
    item = {"id": "k", "type": "book", "title": "T", "custom": {"hints": {
        "bibtex.before": '@preamble{"\\input{/etc/passwd}"}', "bibtex.after": "% fine"}}}
    [record] = CSLJSON_READER.read(io.StringIO(json.dumps([item])), "items.json", Diagnostics())
    assert BIBTEX_WRITER.record_text(record, WriteOptions()) == (
        "@book{k,\n  title = {T},\n}\n\n% fine\n")


def test_a_bib_s_own_preamble_is_written_back_as_it_was() -> None:
    assert written('@preamble{"\\input tugboat.def"}\n@book{k, title = {T}}\n',
                   BIBTEX_WRITER).startswith('@preamble{"\\input tugboat.def"}\n\n@book{k,')


def test_an_entry_in_a_hint_of_another_format_is_not_written() -> None:
    record = Record(id="k", type="book", citation_key="k", fields={"title": "T"},
                    hints={"bibtex.after": "@misc{injected, title = {X}}"})
    assert BIBTEX_WRITER.record_text(record, WriteOptions()) == "@book{k,\n  title = {T},\n}\n"


def many_entries(count: int) -> str:
    """``count`` entries with a ``%`` line, a comment or free text between most of them."""
    between = ["% note {0}\n", "@comment{{jabref-meta: x{0};}}\n", "Text {0}.\n", ""]
    return "% Encoding: UTF-8\n\n" + "".join(
        between[n % 4].format(n) + f"@misc{{k{n},\n  title = {{Title {n}}},\n  year = 2001\n}}\n\n"
        for n in range(count)) + "@comment{jabref-meta: grouping:\n0 AllEntriesGroup:;\n}\n"


@pytest.mark.parametrize("to_format", ["bibtex", "biblatex", "csl-json"])
def test_one_job_and_two_give_the_same_output(tmp_path: Path, to_format: str) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(many_entries(60), encoding="utf-8")
    convert([str(path)], str(tmp_path / "one"), to_format)
    report = convert_in_parallel(str(path), str(tmp_path / "two"), to_format, ReadOptions(),
                                 WriteOptions(), False, 2, from_bytes=0, shard_bytes=400)
    assert report is not None
    assert (tmp_path / "two").read_text() == (tmp_path / "one").read_text()


def test_shards_are_cut_only_where_no_text_lies_between_two_entries(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(many_entries(60), encoding="utf-8")
    shards = plan_shards(str(path), "utf-8", 400)
    assert shards is not None and len(shards) > 2
    text = path.read_bytes()
    assert all(text[:shard.start].rstrip().endswith(b"}") and
               text[shard.start:].startswith(b"@misc{k") and
               int(text[shard.start + 7:text.index(b",", shard.start)]) % 4 == 3
               for shard in shards[1:])


JABREF = SHARED / "conformance" / "jabref-importer"


@pytest.mark.skipif(not JABREF.is_dir(), reason="needs ../shared/conformance/jabref-importer")
def test_jabref_libraries_keep_their_jabref_meta_blocks(tmp_path: Path) -> None:
    libraries = [p for p in sorted(JABREF.glob("*.bib"))
                 if "jabref-meta" in p.read_text(encoding="utf-8", errors="replace")]
    assert len(libraries) >= 5
    for library in libraries:
        output = tmp_path / library.name
        convert([str(library)], str(output), "bibtex")
        text = library.read_text(encoding="utf-8").replace("\r\n", "\n")
        meta = [b for b in kept_blocks(text) if "jabref-meta" in b]
        assert [b for b in kept_blocks(output.read_text()) if "jabref-meta" in b] == meta, \
            library.name


# -- properties ------------------------------------------------------------------------------
#: Characters a key read from a .bib may hold (what bibtex reads, but white space, ``,``,
#: braces, ``=``, ``"``, ``#`` and the backslash).
KEY_CHARACTERS = st.characters(
    blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc"), blacklist_characters=',{}="#\\')
KEYS = st.text(KEY_CHARACTERS, min_size=1, max_size=12).filter(
    lambda key: not KEY_UNSAFE.search(key)) | st.sampled_from(
    ["O'Hara_1999", "smith~20", "a:b/c+d.e", "Müller2020", "x.y+z"])
#: Text without braces or ``@`` for comments and free text.
WORDS = st.text(st.characters(whitelist_categories=("L", "N"), whitelist_characters=" .;:-'"),
                max_size=20)
BLOCKS = st.one_of(
    WORDS.map(lambda w: f"% {w}"),
    WORDS.filter(lambda w: w.strip() != "").map(lambda w: f"Free {w}"),
    WORDS.map(lambda w: f"@comment{{{w}}}"),
    WORDS.map(lambda w: f"@comment{{jabref-meta: grouping:\n0 AllEntriesGroup:;{w}\n}}"),
    WORDS.map(lambda w: f'@preamble{{"{w}"}}'),
    st.tuples(st.sampled_from(["jcp", "pra", "acm"]), WORDS).map(
        lambda p: f"@string{{{p[0]} = {{{p[1]}}}}}"),
)


@st.composite
def libraries(draw: st.DrawFn) -> str:
    keys = draw(st.lists(KEYS, min_size=1, max_size=6, unique_by=str.lower))
    parts: list[str] = []
    for key in keys:
        parts += draw(st.lists(BLOCKS, max_size=3))
        parts.append(f"@misc{{{key},\n  title = {{On {len(key)} things}},\n}}")
    parts += draw(st.lists(BLOCKS, max_size=3))
    return "\n".join(parts) + "\n"


@DIALECTS
@settings(max_examples=60, deadline=None)
@given(library=libraries())
def test_keys_written_are_keys_read(writer: BibtexWriter, library: str) -> None:
    assert entry_keys(written(library, writer)) == entry_keys(library)


def texts_between_entries(text: str) -> list[str]:
    """The text before each entry and after the last, as the reader keeps it."""
    return [kept_text([block.text]) for block in parse_blocks(text, {}, verbatim=True)
            if block.kind == "text"]


@DIALECTS
@settings(max_examples=60, deadline=None)
@given(library=libraries())
def test_non_entry_text_written_is_the_text_read(writer: BibtexWriter, library: str) -> None:
    assert texts_between_entries(written(library, writer)) == texts_between_entries(library)


# -- a .bib converted into its own dialect ---------------------------------------------------
#: The ACL Anthology's export: BibTeX, with a ``location`` that bibtex ignores.
ACL = """\
@inproceedings{doe-2022-tidal,
    title = "Tidal Parsing",
    author = "Doe, Jane",
    booktitle = "Proceedings of ACL",
    year = "2022",
    location = "Dublin, Ireland",
    publisher = "Association for Computational Linguistics",
}
"""
#: A BibLaTeX file: most of its entries show it.
BIBLATEX = """\
@article{lee2021,
  author = {Lee, Ana},
  title = {Shore Birds},
  journaltitle = {Coastal Studies},
  location = {Bergen},
  date = {2021-03},
}

@online{tide2020,
  title = {Tide Tables},
  url = {https://example.org/tides},
  date = {2020},
}
"""


def converted_cli(tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    library = tmp_path / "refs.bib"
    library.write_text(text, encoding="utf-8")
    return run_cli("convert", str(library), *args)


def test_a_bibtex_file_with_a_location_keeps_it_in_bibtex(tmp_path: Path) -> None:
    status, out, err = converted_cli(tmp_path, ACL, "--to", "bibtex")
    assert (status, err) == (0, "")
    assert out == ("@inproceedings{doe-2022-tidal,\n  title = {Tidal Parsing},\n"
                   "  author = {Doe, Jane},\n  booktitle = {Proceedings of ACL},\n"
                   "  year = {2022},\n  location = {Dublin, Ireland},\n"
                   "  publisher = {Association for Computational Linguistics},\n}\n")


def test_a_biblatex_file_is_mapped_to_bibtex_and_says_so(tmp_path: Path) -> None:
    status, out, err = converted_cli(tmp_path, BIBLATEX, "--to", "bibtex")
    assert (status, err.splitlines()) == (0, [
        (f"{tmp_path / 'refs.bib'}: info: read as BibLaTeX (date, @online, journaltitle in 2 "
        "entries)")])
    assert out.startswith("@article{lee2021,\n  author = {Lee, Ana},\n  title = {Shore Birds},\n"
                          "  journal = {Coastal Studies},\n  address = {Bergen},\n")


def test_a_biblatex_file_keeps_its_fields_in_biblatex(tmp_path: Path) -> None:
    _, out, _ = converted_cli(tmp_path, BIBLATEX, "--to", "biblatex")
    assert "  journaltitle = {Coastal Studies},\n  location = {Bergen},\n  date = {2021-03},\n" \
        in out


def test_from_biblatex_reads_a_file_as_biblatex_whatever_it_shows(tmp_path: Path) -> None:
    _, out, _ = converted_cli(tmp_path, ACL, "--from", "biblatex", "--to", "bibtex")
    assert "location" not in out and "  address = {Dublin, Ireland},\n" in out


def test_a_stray_biblatex_field_leaves_a_large_bibtex_file_bibtex() -> None:
    entries = "".join(f"@misc{{k{n}, title = {{T}}, year = 2001}}\n" for n in range(40))
    records = read(entries + "@misc{d, title = {D}, date = {2001-02}}\n")
    assert records[-1].hints["bibtex.dialect"] == "bibtex"
    assert "  date = {2001-02},\n" in BIBTEX_WRITER.record_text(records[-1], WriteOptions())


def test_the_dialect_is_decided_once_for_the_file_with_one_job_or_two(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(many_entries(60) + "".join(
        BIBLATEX.replace("lee2021", f"lee{n}").replace("tide2020", f"tide{n}")
        for n in range(3)), encoding="utf-8")
    one = convert([str(path)], str(tmp_path / "one"), "bibtex")
    two = convert_in_parallel(str(path), str(tmp_path / "two"), "bibtex", ReadOptions(),
                              WriteOptions(), False, 2, from_bytes=0, shard_bytes=400)
    assert two is not None
    assert [str(m) for m in two.diagnostics.messages] == [
        str(m) for m in one.diagnostics.messages]
    assert (tmp_path / "two").read_text() == (tmp_path / "one").read_text()
