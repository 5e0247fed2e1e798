"""Rich text in the model: one normal form, plain text from one function, spellings as hints."""

from __future__ import annotations

import copy
import pickle

import pytest

from refbridge.model import ModelError, Record
from refbridge.richtext import (
    Link,
    Math,
    Raw,
    RichText,
    RichTextError,
    Style,
    Styled,
    Url,
    concat,
    map_text,
    plain,
    rich,
    strip,
    with_latex,
    without_latex,
)

DNA = Styled(Style.NOCASE, ("DNA",))


def test_a_value_without_structure_is_a_plain_string() -> None:
    assert rich(["Deep ", "", "learning"]) == "Deep learning"
    assert type(rich(["Deep ", "", "learning"])) is str


def test_adjacent_texts_and_inlines_of_one_style_are_merged() -> None:
    value = rich(["The ", DNA, Styled(Style.NOCASE, (" code",)), " of ", "life"])
    assert isinstance(value, RichText)
    assert value.inlines == ("The ", Styled(Style.NOCASE, ("DNA code",)), " of life")


def test_nocase_inside_nocase_is_said_once_and_said_of_the_text_inside_styles() -> None:
    from refbridge.richtext import styled

    assert styled(Style.NOCASE, ["a ", Styled(Style.NOCASE, ("B",)),
                                 Styled(Style.ITALIC, (DNA,))]) == (
        Styled(Style.NOCASE, ("a B",)), Styled(Style.ITALIC, (DNA,)))


def test_a_style_inside_the_same_style_is_said_once() -> None:
    assert rich([Styled(Style.ITALIC, ("a ", Styled(Style.ITALIC, ("b",))))]) == rich(
        [Styled(Style.ITALIC, ("a b",))])


def test_plain_text_drops_the_structure_and_shows_formulas_in_unicode() -> None:
    value = rich(["The ", Styled(Style.ITALIC, ("in vivo",)), " cost is ", Math("O(n^2)"), " per ",
                  Url("https://x.org"), " ", Raw("\\cite{knuth}")])
    assert plain(value) == "The in vivo cost is O(n²) per https://x.org \\cite{knuth}"


def test_a_spelling_is_a_hint_not_part_of_the_value() -> None:
    spelled = with_latex("Müller", 'M{\\"u}ller')
    assert spelled == "Müller"
    assert hash(spelled) == hash("Müller")
    assert spelled.latex == 'M{\\"u}ller'  # type: ignore[union-attr]
    assert without_latex(spelled) == "Müller" and type(without_latex(spelled)) is str


def test_values_with_the_same_inlines_are_equal_whatever_their_spellings() -> None:
    assert rich(["x", DNA], "x{DNA}") == rich(["x", DNA], "x{{DNA}}")
    assert rich(["x", DNA]) != rich(["x", Styled(Style.ITALIC, ("DNA",))])


def test_concatenation_keeps_structure_and_a_spelling_when_every_part_has_one() -> None:
    title = with_latex(rich(["Higher Algebra ", Styled(Style.NOCASE, ("V",))]),
                       "Higher Algebra {V}")
    joined = concat(title, with_latex(": ", ": "), with_latex("2-Groups", "2-Groups"))
    assert joined == rich(["Higher Algebra ", Styled(Style.NOCASE, ("V",)), ": 2-Groups"])
    assert joined.latex == "Higher Algebra {V}: 2-Groups"  # type: ignore[union-attr]
    assert concat(title, ": ", "2-Groups").latex is None  # type: ignore[union-attr]


def test_strip_removes_white_space_at_the_ends_only() -> None:
    assert strip(rich(["  a ", DNA, " b  "])) == rich(["a ", DNA, " b"])


def test_map_text_changes_text_but_not_formulas_addresses_or_raw_latex() -> None:
    value = rich(["Ab ", Styled(Style.SUPERSCRIPT, ("Cd",)), Math("X"), Url("http://A"),
                 Raw("\\B")])
    assert map_text(value, str.upper) == rich(
        ["AB ", Styled(Style.SUPERSCRIPT, ("CD",)), Math("X"), Url("http://A"), Raw("\\B")])


def test_a_link_keeps_its_address_and_text() -> None:
    value = rich([Link("https://doi.org/10.1/x", ("the paper",))])
    assert plain(value) == "the paper"


@pytest.mark.parametrize(("build", "message"), [
    (lambda: Styled("underline", ("x",)), "unknown text style 'underline'"),
    (lambda: Styled(Style.ITALIC, ()), "italic text is empty"),
    (lambda: Math("  "), "formula is empty"),
    (lambda: Raw("\x00"), "LaTeX contains a NUL character"),
])
def test_inlines_are_validated_when_built(build: object, message: str) -> None:
    with pytest.raises(RichTextError, match=message):
        build()  # type: ignore[operator]


def test_a_record_refuses_rich_text_without_text() -> None:
    with pytest.raises(ModelError, match="field 'title' is empty"):
        Record(id="k", type="book", fields={"title": RichText((Styled(Style.NOCASE, (" ",)),))})


def test_a_record_gives_plain_text_from_get_and_rich_text_from_rich() -> None:
    value = rich(["The ", DNA, " of ", Math("x^2")])
    record = Record(id="k", type="book", fields={"title": value})
    assert record.get("title") == "The DNA of x²"
    assert record.title == "The DNA of x²"
    assert record.rich("title") == value


def test_a_rich_value_survives_pickling_and_copying_with_its_spelling() -> None:
    # (worker processes receive records pickled; the compiled build's frozen classes too)
    value = with_latex(rich(["The ", Styled(Style.ITALIC, ("E. coli",)), " genome ",
                             Math("O(n^2)"), Link("https://example.org", ("site",)),
                             Url("https://doi.org/10.1/x"), Raw("\\cite{x}")]),
                       "The \\emph{E. coli} genome")
    for copied in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert copied == value
        assert copied.latex == "The \\emph{E. coli} genome"
        assert copied.plain == value.plain
