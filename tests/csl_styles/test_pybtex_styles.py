"""The BibTeX classics (plain, unsrt, alpha) through pybtex: mapping, escaping, fallbacks."""

from __future__ import annotations

import pytest

from refbridge.formatting import format_bibliography
from refbridge.styles.pybtex_bridge import PybtexValueError, to_pybtex_entry

ARTICLE = {
    "id": "smith2019", "type": "article-journal", "title": "Neural approaches to ATLAS data",
    "author": [{"family": "Smith", "given": "Alice B."},
               {"family": "Meer", "given": "Jan", "non-dropping-particle": "van der"}],
    "container-title": "Journal of Documentation", "volume": "75", "issue": "4",
    "page": "801-829", "issued": {"date-parts": [[2019, 7]]}, "DOI": "10.1108/JD-11-2018-0190",
}
REPORT = {"id": "who2020", "type": "report", "title": "World health statistics 2020",
          "author": [{"literal": "World Health Organization"}], "publisher": "WHO",
          "number": "WHO/HIS/2020.1", "issued": {"date-parts": [[2020]]}}
BOOK = {"id": "knuth1997", "type": "book", "title": "The art of computer programming",
        "author": [{"family": "Knuth", "given": "Donald E."}], "publisher": "Addison-Wesley",
        "issued": {"date-parts": [[1997]]}}
UNSIGNED_BOOK = {"id": "cmos", "type": "book", "title": "The Chicago manual of style",
                 "publisher": "University of Chicago Press", "issued": {"date-parts": [[2017]]}}


def test_journal_article_maps_to_bibtex_article_fields() -> None:
    entry = to_pybtex_entry(ARTICLE)
    assert entry.type == "article"
    assert dict(entry.fields) == {
        "title": "Neural approaches to {ATLAS} data", "journal": "Journal of Documentation",
        "volume": "75", "number": "4", "pages": "801-829", "doi": "10.1108/JD-11-2018-0190",
        "year": "2019", "month": "July"}
    assert [str(p) for p in entry.persons["author"]] == ["Smith, Alice B.", "van der Meer, Jan"]


def test_report_publisher_becomes_institution_and_corporate_author_stays_whole() -> None:
    entry = to_pybtex_entry(REPORT)
    assert (entry.type, entry.fields["institution"]) == ("techreport", "WHO")
    assert [str(p) for p in entry.persons["author"]] == ["{World Health Organization}"]


def test_plain_text_entry() -> None:
    assert format_bibliography([ARTICLE], style="plain") == (
        "[1] Alice B. Smith and Jan van der Meer. Neural approaches to ATLAS data. "
        "Journal of Documentation, 75(4):801-829, July 2019. doi:10.1108/JD-11-2018-0190.\n")


def test_alpha_labels_are_the_citations() -> None:
    assert format_bibliography([ARTICLE, BOOK], style="alpha", cite=True) == \
        "[SvdM19]\n[Knu97]\n"


def test_unsrt_keeps_input_order_and_plain_sorts_by_author() -> None:
    unsrt = format_bibliography([REPORT, ARTICLE], style="unsrt").splitlines()
    plain = format_bibliography([REPORT, ARTICLE], style="plain").splitlines()
    assert [line[:10] for line in unsrt] == ["[1] World ", "[2] Alice "]
    assert [line[:10] for line in plain] == ["[1] Alice ", "[2] World "]


def test_page_ranges_and_quotes_keep_their_hyphens_and_marks() -> None:
    entry = to_pybtex_entry({**BOOK, "page": "7--9", "title": "``Quoted''"})
    assert (entry.fields["pages"], entry.fields["title"]) == ("7-{}-9", "`{}`Quoted'{}'")


def test_entry_missing_a_required_field_is_formatted_as_misc() -> None:
    assert format_bibliography([UNSIGNED_BOOK], style="plain") == \
        "[1] The Chicago manual of style. 2017.\n"


def test_latex_special_characters_in_text_come_out_as_text() -> None:
    item = {**UNSIGNED_BOOK, "title": r"50% of \emph x & $y$ -- ``q'' ^ ~ # _ <b>"}
    assert format_bibliography([item], style="plain") == \
        "[1] 50% of \\emph x & $y$ -- ``q'' ^ ~ # _ <b>. 2017.\n"


def test_latex_output_escapes_record_text() -> None:
    item = {**UNSIGNED_BOOK, "title": r"Cost of \relax at 5$ & 3^2"}
    assert format_bibliography([item], style="plain", output="latex") == (
        "[1] Cost of \\textbackslash{}relax at 5\\$ \\& 3\\textasciicircum{}2.\n"
        "\\newblock 2017.\n")


def test_html_output_escapes_markup() -> None:
    item = {**UNSIGNED_BOOK, "title": "Tags like <script> & co"}
    assert format_bibliography([item], style="plain", output="html") == (
        '<div class="csl-bib-body">\n'
        '  <div class="csl-entry"><div class="csl-left-margin">[1]</div>'
        '<div class="csl-right-inline">Tags like &lt;script&gt; &amp; co.\n2017.</div></div>\n'
        "</div>\n")


def test_braces_cannot_be_printed_by_pybtex_and_are_refused() -> None:
    item = {**UNSIGNED_BOOK, "title": "Sets {a, b}"}
    with pytest.raises(PybtexValueError, match="item 'cmos': title contains braces"):
        format_bibliography([item], style="plain")


def test_rtf_is_not_offered_by_pybtex_styles() -> None:
    with pytest.raises(Exception, match="style 'plain' cannot write 'rtf'"):
        format_bibliography([ARTICLE], style="plain", output="rtf")
