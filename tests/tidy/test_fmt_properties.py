"""Properties of ``refbridge fmt`` on generated .bib text (mixed case, quotes, macros, ``#``,
comments, odd spacing): formatting formatted text changes nothing, and every field's value
is what it was (the tokenizer resolves the same value, white space apart); a check that
streams the text in pieces says what formatting the whole text does."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from refbridge.formats.bibtex.syntax import MONTH_MACROS, read_blocks
from refbridge.tidy import TidyOptions, tidy_text
from refbridge.tidy.document import StreamedDocument, read_document
from refbridge.tidy.formatter import check_texts

_WORDS = st.sampled_from(["Graph", "theory", "of", "{DNA}", "{\\\"o}ber", "Müller", "x_1",
                          "$\\alpha$", "--", "Stra\\ss e", "a  b", "new\nline", "say \"hi\"",
                          "March", "{\\'e}t{\\'e}"])
_NAMES = st.sampled_from(["title", "Author", "JOURNAL", "note", "month", "year", "url",
                          "publisher", "x-custom"])
_SPACE = st.sampled_from([" ", "", "\n  ", "\t"])


@st.composite
def _value(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["braces", "quotes", "number", "macro", "concat"]))
    text = " ".join(draw(st.lists(_WORDS, min_size=0, max_size=6)))
    if kind == "quotes":
        return '"' + text.replace('"', "'") + '"'
    if kind == "number":
        return str(draw(st.integers(1900, 2030)))
    if kind == "macro":
        return draw(st.sampled_from(["jan", "mar", "acm", "undefinedmacro"]))
    if kind == "concat":
        return "acm # { " + text + "}"
    return "{" + text + "}"


@st.composite
def _entry(draw: st.DrawFn, key: str) -> str:
    fields = draw(st.lists(st.tuples(_NAMES, _value()), min_size=0, max_size=6))
    space = draw(_SPACE)
    body = ",".join(f"{space}{name}{draw(_SPACE)}={draw(_SPACE)}{value}"
                    for name, value in fields)
    entry_type = draw(st.sampled_from(["article", "Book", "INPROCEEDINGS", "misc", "online"]))
    ending = draw(st.sampled_from(["", ","])) if fields else ""
    return f"@{entry_type}{{{key},{body}{ending}\n}}"


@st.composite
def _library(draw: st.DrawFn) -> str:
    parts = [draw(st.sampled_from(["", "% header\n\n", "Free text before.\n"]))]
    parts.append('@string{ACM = "ACM Press"}\n')
    count = draw(st.integers(0, 6))
    for number in range(count):
        parts.append(draw(st.sampled_from(["", "% about it\n", "\n\n\n"])))
        key = draw(st.sampled_from([f"key{number}", "twice", "Zeta", "alpha"]))
        parts.append(draw(_entry(key)) + draw(st.sampled_from(["\n", " % tail\n", "\n\n"])))
    parts.append(draw(st.sampled_from(["", "@comment{jabref-meta: x;}\n", "% the end\n"])))
    return "".join(parts)


_OPTIONS = st.builds(
    TidyOptions, sort=st.sampled_from(["given", "key", "-year", "type"]),
    field_order=st.sampled_from(["as-given", "canonical", "year,title"]),
    indent=st.sampled_from(["  ", "\t", ""]), align=st.booleans(),
    values=st.sampled_from(["braces", "quotes"]), drop_empty=st.booleans(),
    months=st.booleans(), unicode=st.sampled_from([None, True, False]),
    wrap=st.sampled_from([0, 30, 79]),
    key_pattern=st.sampled_from([None, "[auth:lower][year]"]))


@settings(max_examples=100, deadline=None)
@given(_library(), _OPTIONS)
def test_formatting_twice_is_formatting_once(text: str, options: TidyOptions) -> None:
    once = tidy_text(text, "gen.bib", options).text
    assert once is not None
    assert tidy_text(once, "gen.bib", options).text == once


def _values(text: str) -> list[tuple[str, str, str]]:
    return sorted((block.key, field.name, " ".join(field.value.split()))
                  for block in read_blocks(io.StringIO(text)) if block.kind == "entry"
                  for field in block.fields)


@settings(max_examples=100, deadline=None)
@given(_library(), st.sampled_from(["braces", "quotes"]), st.booleans(),
       st.sampled_from(["given", "key", "year"]), st.sampled_from([0, 40]))
def test_every_field_keeps_its_value(text: str, values: str, align: bool, sort: str,
                                     wrap: int) -> None:
    options = TidyOptions(values=values, align=align, sort=sort, wrap=wrap)
    tidied = tidy_text(text, "gen.bib", options)
    assert tidied.text is not None
    removed = {c.key for c in tidied.changes if c.how.startswith("removed")}
    assert [v for v in _values(text) if v[0] not in removed] == \
        [v for v in _values(tidied.text) if v[0] not in removed]


#: What a file may hold between and around its blocks, as cut points of a streamed check
#: see them: an indented block, two blocks on one line, a month macro, a broken entry.
_ODD_BLOCKS = st.sampled_from(["  @misc{indented, title = {Set in}}\n",
                               "@misc{one, year = 2001}@misc{two, year = 2002}\n",
                               "@string{jan = {Janvier}}\n", "@book{broken, title = {Open\n",
                               "@comment{jabref-meta: grouping;}\n", "% @misc{commented}\n"])


@st.composite
def _streamed_library(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A library with odd blocks mixed in, and its text cut into pieces anywhere."""
    parts = [draw(_library())]
    for _ in range(draw(st.integers(0, 3))):
        parts.insert(draw(st.integers(0, len(parts))), draw(_ODD_BLOCKS))
    text = "".join(parts)
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=8)))
    return text, [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]


_IN_ORDER = st.builds(
    TidyOptions, field_order=st.sampled_from(["as-given", "canonical"]),
    values=st.sampled_from(["braces", "quotes"]), drop_empty=st.booleans(),
    months=st.booleans(), wrap=st.sampled_from([0, 30]))


@settings(max_examples=100, deadline=None)
@given(_streamed_library())
def test_a_document_read_in_pieces_is_the_document_read_whole(
        library: tuple[str, list[str]]) -> None:
    text, pieces = library
    whole, problems = read_document(text, "gen.bib")
    streamed = StreamedDocument(pieces, "gen.bib")
    assert tuple(streamed) == whole.units
    assert (streamed.after, streamed.problems) == (whole.after, problems)


@settings(max_examples=100, deadline=None)
@given(_streamed_library(), _IN_ORDER)
def test_a_streamed_check_says_what_formatting_the_whole_text_does(
        library: tuple[str, list[str]], options: TidyOptions) -> None:
    text, pieces = library
    tidied = tidy_text(text, "gen.bib", options)
    months = any(u.block.kind == "string" and u.key in MONTH_MACROS
                 for u in read_document(text, "gen.bib")[0].units)
    checked = check_texts(pieces, "gen.bib", options, months_redefined=months)
    assert checked.months_redefined == months
    assert checked.problems == tidied.problems
    if tidied.text is not None:
        assert (checked.notes, checked.changes, checked.changed) == \
            (tidied.notes, tidied.changes, tidied.text != text)
