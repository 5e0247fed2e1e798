"""Output formats: record text is always data, never markup, commands or links to unsafe URLs."""

from __future__ import annotations

import pytest

from refbridge.csl import CslStyle, make_processor

STYLE = CslStyle.from_xml(
    '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
    "<info><id>t</id><title>t</title></info>"
    '<citation><layout><text variable="title"/></layout></citation>'
    '<bibliography><layout><group delimiter=". "><text variable="title" font-style="italic"/>'
    '<text variable="URL"/><text variable="DOI" prefix="https://doi.org/"/></group></layout></bibliography>'
    "</style>")
HOSTILE = r"<script>alert(1)</script> }\input{x}{ \ { & 100% $5 #1 _a ~b ^c"


def entry(output: str, **fields: str) -> str:
    item = {"id": "x", "type": "book", "title": HOSTILE, **fields}
    return make_processor(STYLE, [item], output=output).bibliography()[0]


def test_html_escapes_markup_in_record_text() -> None:
    assert entry("html") == (
        '<div class="csl-entry"><i>&#60;script&#62;alert(1)&#60;/script&#62; }\\input{x}{ \\ { &#38; 100% $5 '
        "#1 _a ~b ^c</i></div>")


def test_latex_escapes_every_special_character() -> None:
    assert entry("latex") == (
        r"\textit{\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{} \}\textbackslash{}input"
        r"\{x\}\{ \textbackslash{} \{ \& 100\% \$5 \#1 \_a \textasciitilde{}b \textasciicircum{}c}")


def test_rtf_escapes_braces_and_backslashes() -> None:
    assert entry("rtf") == r"{\i <script>alert(1)</script> \}\\input\{x\}\{ \\ \{ & 100% $5 #1 _a ~b ^c}"


def test_markdown_escapes_emphasis_and_html() -> None:
    assert entry("markdown") == r"*\<script\>alert(1)\</script\> }\\input{x}{ \\ { \& 100% $5 \#1 \_a ~b ^c*"


def test_text_output_is_the_plain_string() -> None:
    assert entry("text") == HOSTILE


def test_markup_in_field_values_becomes_formatting() -> None:
    item = {"id": "x", "type": "book", "title": "H<sub>2</sub>O and <b>bold</b> <sc>Caps</sc>"}
    assert make_processor(STYLE, [item], output="html").bibliography() == [
        ('<div class="csl-entry"><i>H<sub>2</sub>O and <b>bold</b> '
        '<span style="font-variant:small-caps;">Caps</span></i></div>')]


def test_links_only_for_http_urls_and_dois() -> None:
    item = {"id": "x", "type": "book", "title": "T", "URL": "https://example.org/a?b=1&c=2", "DOI": "10.1/x"}
    assert make_processor(STYLE, [item], output="html").bibliography() == [
        ('<div class="csl-entry"><i>T</i>. <a href="https://example.org/a?b=1&#38;c=2">'
        'https://example.org/a?b=1&#38;c=2</a>. <a href="https://doi.org/10.1/x">https://doi.org/10.1/x</a></div>')]


def test_a_doi_given_as_a_url_links_to_itself() -> None:
    style = CslStyle.from_xml(
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
        "<info><id>t</id><title>t</title></info>"
        '<citation><layout><text variable="title"/></layout></citation>'
        '<bibliography><layout><text variable="DOI" prefix="doi:"/></layout></bibliography></style>')
    item = {"id": "x", "type": "book", "DOI": "https://doi.org/10.1/x"}
    assert make_processor(style, [item], output="html").bibliography() == [
        '<div class="csl-entry">doi:<a href="https://doi.org/10.1/x">https://doi.org/10.1/x</a></div>']


def test_javascript_urls_are_never_links() -> None:
    item = {"id": "x", "type": "book", "title": "T", "URL": "javascript:alert(1)"}
    assert make_processor(STYLE, [item], output="html").bibliography() == [
        '<div class="csl-entry"><i>T</i>. javascript:alert(1)</div>']


def test_links_can_be_turned_off() -> None:
    item = {"id": "x", "type": "book", "title": "T", "URL": "https://example.org/"}
    assert make_processor(STYLE, [item], output="html", links=False).bibliography() == [
        '<div class="csl-entry"><i>T</i>. https://example.org/</div>']


def test_bibliography_document_wraps_entries_like_citeproc_js() -> None:
    item = {"id": "x", "type": "book", "title": "T"}
    assert make_processor(STYLE, [item], output="html").bibliography_document() == (
        '<div class="csl-bib-body">\n  <div class="csl-entry"><i>T</i></div>\n</div>')


def test_unknown_output_format_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown output format 'pdf'"):
        make_processor(STYLE, [], output="pdf")


def test_rtf_writes_non_ascii_as_unicode_escapes() -> None:
    item = {"id": "x", "type": "book", "title": "Müller 😀"}
    assert make_processor(STYLE, [item], output="rtf").bibliography() == [
        r"{\i M\uc0\u252 ller \uc0\u-10179 \uc0\u-8704 }"]
