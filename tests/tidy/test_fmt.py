"""``refbridge fmt``'s formatting, text to text: each option's exact output, and what is never
lost (comments, @string, @preamble, @comment, unknown fields, duplicates that differ)."""

from __future__ import annotations

from refbridge.citekeys import follows_pattern
from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.reader import READER
from refbridge.tidy import TidyOptions, tidy_text

LIBRARY = """\
% Shared bibliography of the group.
% Keep it sorted, please.

@String{TUG = "TeX Users Group"}

@Book{knuth:tb,
  Author = "Donald E. Knuth",
  TITLE = {The {\\TeX}book}, Publisher = {Addison-Wesley},
  year = 1984, month = {March}, note = {},
  mrnumber = {MR0860432}
}
% A talk, cited once.
@inproceedings{beeton:tug,
  author = {Barbara Beeton}, title = {Accents in {T}e{X}: {\\"O}sterreich and Stra\\ss e},
  booktitle = TUG # " Annual Meeting", year = {1999}
}
"""


def _tidy(text: str, **options: object) -> str:
    tidied = tidy_text(text, "refs.bib", TidyOptions(**options))  # type: ignore[arg-type]
    assert tidied.text is not None, tidied.problems
    return tidied.text


def test_the_default_lays_entries_out_and_keeps_everything_else() -> None:
    assert _tidy(LIBRARY) == """\
% Shared bibliography of the group.
% Keep it sorted, please.

@string{tug = {TeX Users Group}}

@book{knuth:tb,
  author    = {Donald E. Knuth},
  title     = {The {\\TeX}book},
  publisher = {Addison-Wesley},
  year      = 1984,
  month     = {March},
  note      = {},
  mrnumber  = {MR0860432},
}

% A talk, cited once.
@inproceedings{beeton:tug,
  author    = {Barbara Beeton},
  title     = {Accents in {T}e{X}: {\\"O}sterreich and Stra\\ss e},
  booktitle = TUG # { Annual Meeting},
  year      = {1999},
}
"""


def test_formatting_formatted_text_changes_nothing() -> None:
    options = {"sort": "key", "field_order": "canonical", "months": True, "drop_empty": True,
               "wrap": 40, "unicode": True, "key_pattern": "[auth:lower][year]"}
    once = _tidy(LIBRARY, **options)
    assert _tidy(once, **options) == once


def test_quotes_months_empty_fields_tabs_and_no_alignment() -> None:
    assert _tidy(LIBRARY, values="quotes", months=True, drop_empty=True, align=False,
                 indent="\t").split("% A talk")[0].split("\n\n", 2)[2] == """\
@book{knuth:tb,
\tauthor = "Donald E. Knuth",
\ttitle = "The {\\TeX}book",
\tpublisher = "Addison-Wesley",
\tyear = 1984,
\tmonth = mar,
\tmrnumber = "MR0860432",
}

"""


def test_a_value_with_a_top_level_quote_stays_in_braces() -> None:
    assert _tidy('@misc{a, note = {say "hi"}, title = {{"}quoted}}\n', values="quotes") == (
        '@misc{a,\n  note  = {say "hi"},\n  title = "{"}quoted",\n}\n')


def test_a_month_bibtex_prints_as_written_is_not_made_a_macro() -> None:
    text = "@misc{a, month = {3}}\n@misc{b, month = {mar}}\n@misc{c, month = {march}}\n"
    assert _tidy(text, months=True, align=False) == (
        "@misc{a,\n  month = {3},\n}\n\n@misc{b,\n  month = {mar},\n}\n\n"
        "@misc{c,\n  month = {march},\n}\n")


def test_a_redefined_month_macro_keeps_months_as_written() -> None:
    text = '@string{mar = "M{\\"a}rz"}\n@misc{a, month = {March}}\n'
    assert "month = {March}" in _tidy(text, months=True)


def test_empty_fields_that_say_something_are_kept() -> None:
    text = ("@inproceedings{child, title = {T}, publisher = {}, crossref = {proc}}\n"
            "@misc{twice, note = {}, note = {biber reads this one}}\n"
            "@proceedings{proc, title = {P}, publisher = {Springer}}\n")
    assert _tidy(text, drop_empty=True, align=False) == (
        "@inproceedings{child,\n  title = {T},\n  publisher = {},\n  crossref = {proc},\n}\n\n"
        "@misc{twice,\n  note = {},\n  note = {biber reads this one},\n}\n\n"
        "@proceedings{proc,\n  title = {P},\n  publisher = {Springer},\n}\n")


def test_long_values_are_wrapped_under_their_first_character_within_the_width() -> None:
    text = ("@article{long, title = {A rather long title about the formatting of\n"
            "     bibliographies that goes on}, url = {https://example.org/a/very/long/"
            "address/that/is/never/wrapped}}\n")
    assert _tidy(text, wrap=50) == (
        "@article{long,\n"
        "  title = {A rather long title about the\n"
        "           formatting of bibliographies that goes\n"
        "           on},\n"
        "  url   = {https://example.org/a/very/long/address/that/is/never/wrapped},\n"
        "}\n")


def test_sorting_by_key_keeps_strings_first_and_parents_after_children() -> None:
    text = ("% header\n\n@misc{zeta, title = {Z}}\n@string{sp = {Springer}}\n"
            "@proceedings{alpha, title = {P}, publisher = sp}\n"
            "% about beta\n@inproceedings{beta, title = {B}, crossref = {alpha}}\n"
            "@comment{jabref-meta: databaseType:bibtex;}\n")
    assert _tidy(text, sort="key", align=False) == (
        "% header\n\n@string{sp = {Springer}}\n\n"
        "% about beta\n@inproceedings{beta,\n  title = {B},\n  crossref = {alpha},\n}\n\n"
        "@proceedings{alpha,\n  title = {P},\n  publisher = sp,\n}\n\n"
        "@misc{zeta,\n  title = {Z},\n}\n\n"
        "@comment{jabref-meta: databaseType:bibtex;}\n")


def test_sorting_by_year_newest_first_puts_entries_without_a_year_last() -> None:
    text = ("@misc{old, year = 1990}\n@misc{none, title = {T}}\n@misc{new, date = {2021-03}}\n"
            "@misc{mid, year = {2005}}\n")
    keys = [line.split("{")[1].rstrip(",") for line in _tidy(text, sort="-year").splitlines()
            if line.startswith("@")]
    assert keys == ["new", "mid", "old", "none"]


def test_sorting_refuses_a_macro_defined_twice() -> None:
    text = "@string{j = {A}}\n@misc{x, journal = j}\n@string{j = {B}}\n@misc{y, journal = j}\n"
    tidied = tidy_text(text, "refs.bib", TidyOptions(sort="key"))
    assert tidied.text is None
    assert [str(p) for p in tidied.problems] == [
        ("refs.bib: error: @string j is defined more than once: sorting would change the "
         "value of the entries between the definitions; the file is left as it is (sort it "
         "with --sort given)")]


def test_canonical_and_listed_field_orders() -> None:
    text = "@article{a, year = 2001, note = {N}, title = {T}, author = {A. B}}\n"
    assert _tidy(text, field_order="canonical", align=False) == (
        "@article{a,\n  author = {A. B},\n  title = {T},\n  year = 2001,\n  note = {N},\n}\n")
    assert _tidy(text, field_order="note,title", align=False) == (
        "@article{a,\n  note = {N},\n  title = {T},\n  year = 2001,\n  author = {A. B},\n}\n")


def test_accents_to_unicode_and_back_to_latex() -> None:
    text = ('@misc{a, author = {J{\\"o}rg M\\"{u}ller and {\\L}ukasz}, title = {Stra\\ss{}e '
            'and $\\"o$}, url = {https://x.org/\\"o}}\n')
    unicode = _tidy(text, unicode=True, align=False)
    assert unicode == ("@misc{a,\n  author = {Jörg Müller and {Ł}ukasz},\n"
                       "  title = {Straße and $\\\"o$},\n  url = {https://x.org/\\\"o},\n}\n")
    assert _tidy(unicode, unicode=False, align=False) == (
        '@misc{a,\n  author = {J{\\"o}rg M{\\"u}ller and {\\L{}}ukasz},\n'
        '  title = {Stra\\ss{}e and $\\"o$},\n  url = {https://x.org/\\"o},\n}\n')


def test_an_exact_duplicate_is_removed_and_a_differing_one_kept_with_both_lines() -> None:
    text = ("@misc{a, title = {T}}\n@misc{a,\n title = \"T\"}\n@misc{b, title = {One}}\n"
            "@misc{b, title = {Two}}\n")
    tidied = tidy_text(text, "refs.bib", TidyOptions())
    assert tidied.text == ("@misc{a,\n  title = {T},\n}\n\n@misc{b,\n  title = {One},\n}\n\n"
                           "@misc{b,\n  title = {Two},\n}\n")
    assert [str(n) for n in tidied.notes] == [
        "refs.bib:2: note: entry 'a' removed: an exact duplicate of the one on line 1",
        ("refs.bib:5: warning: key 'b' is given on lines 4 and 5 with different content; "
         "both are kept")]


def test_keys_that_deviate_from_the_pattern_are_renamed_with_their_references() -> None:
    text = ("@inproceedings{talk, author = {Barbara Beeton}, title = {Accents}, "
            "crossref = {tug99}}\n"
            "@proceedings{tug99, editor = {Karl Berry}, title = {TUG 1999}, year = 1999}\n"
            "@book{knuth1984, author = {Donald Knuth}, title = {The TeXbook}, year = 1984}\n")
    tidied = tidy_text(text, "refs.bib", TidyOptions(key_pattern="[auth:lower][year]",
                                                     align=False))
    assert [str(n) for n in tidied.notes] == [
        "refs.bib:1: note: key 'talk' renamed to 'beeton1999'",
        "refs.bib:2: note: key 'tug99' renamed to 'berry1999'"]
    assert tidied.text is not None
    assert "@inproceedings{beeton1999,\n" in tidied.text
    assert "  crossref = {berry1999},\n" in tidied.text
    assert "@book{knuth1984,\n" in tidied.text
    assert [(c.line, c.key, c.how) for c in tidied.changes] == [
        (1, "talk", "key renamed to beeton1999, reformatted"),
        (2, "tug99", "key renamed to berry1999, reformatted"),
        (3, "knuth1984", "reformatted")]


def test_whether_a_key_follows_a_pattern() -> None:
    record = next(iter(READER.read(
        __import__("io").StringIO("@book{x, author = {Donald Knuth}, year = 1984}"), "x.bib",
        Diagnostics())))
    assert follows_pattern("knuth1984", record, "[auth:lower][year]")
    assert follows_pattern("knuth1984b", record, "[auth:lower][year]")
    assert not follows_pattern("knuth84", record, "[auth:lower][year]")
    assert not follows_pattern("knuth1984texbook", record, "[auth:lower][year]")


def test_a_broken_entry_leaves_the_file_unformatted_with_its_line() -> None:
    tidied = tidy_text("@misc{a, title = {T}}\n\n@misc{b, title = {open\n}\n", "refs.bib",
                       TidyOptions())
    assert tidied.text is None
    assert [str(p) for p in tidied.problems] == [
        ("refs.bib:3: error: broken entry: the value of 'title' runs to the end of the "
         "entry: a '{' in it is never closed")]


def test_text_between_blocks_and_after_an_entry_on_its_line_is_kept() -> None:
    text = ("Text before any entry.\n@misc{a, title={T}} % the end of a\n"
            "@misc{b, title={U}}@misc{c, title={V}}\n\n\n\n% the end\n")
    assert _tidy(text, align=False) == (
        "Text before any entry.\n@misc{a,\n  title = {T},\n} % the end of a\n\n"
        "@misc{b,\n  title = {U},\n}\n\n@misc{c,\n  title = {V},\n}\n\n% the end\n")
