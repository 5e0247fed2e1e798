"""Hostile input for the readers of EndNote, MEDLINE, PubMed, Web of Science, Scopus, MODS,
Word and CSV: entity expansion and external entities refused with nothing read or fetched,
malformed XML named by file and line, huge fields, wrong encodings; and detection of every
format by content, before the broader readers."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzz.harness import read_bytes

#: reader -> (a small valid document, where a title goes: text before and after it)
XML_READERS: dict[str, tuple[str, str]] = {
    "endnote-xml": ("<xml><records><record><ref-type name=\"Book\">6</ref-type><titles><title>",
                    "</title></titles></record></records></xml>"),
    "mods": ('<modsCollection xmlns="http://www.loc.gov/mods/v3"><mods><titleInfo><title>',
             "</title></titleInfo></mods></modsCollection>"),
    "word-xml": (('<b:Sources xmlns:b="http://schemas.openxmlformats.org/officeDocument/2006/'
                 'bibliography"><b:Source><b:SourceType>Book</b:SourceType><b:Title>'),
                 "</b:Title></b:Source></b:Sources>"),
    "pubmed-xml": (("<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article>"
                   "<ArticleTitle>"), ("</ArticleTitle></Article></MedlineCitation>"
                   "</PubmedArticle></PubmedArticleSet>")),
}


def document(reader: str, title: str, prolog: str = "") -> bytes:
    before, after = XML_READERS[reader]
    root = before.split(">", 1)[0].split()[0][1:]
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{prolog.replace("ROOT", root)}\n' \
        f"{before}{title}{after}\n".encode()


@pytest.mark.parametrize("reader", XML_READERS)
def test_a_valid_document_reads_its_title(reader: str) -> None:
    outcome = read_bytes(reader, document(reader, "Safe &amp; sound"))
    assert [r.title for r in outcome.records] == ["Safe & sound"]


@pytest.mark.parametrize("reader", XML_READERS)
def test_billion_laughs_is_refused_before_anything_is_expanded(reader: str) -> None:
    laughs = "".join(f"<!ENTITY l{i} \"{f'&l{i - 1};' * 10}\">" for i in range(1, 10))
    prolog = f'<!DOCTYPE ROOT [<!ENTITY l0 "lol">{laughs}]>'
    outcome = read_bytes(reader, document(reader, "&l9;", prolog))
    assert outcome.error is not None and outcome.records == []
    assert "internal subset" in str(outcome.error) and ":2:" in str(outcome.error)


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    """A web server on 127.0.0.1 that records every request it gets."""
    requests: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<!ENTITY x \"FROM-SERVER\">")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", requests
    server.shutdown()


@pytest.mark.parametrize("reader", XML_READERS)
def test_external_entities_are_neither_read_nor_fetched(
        reader: str, tmp_path: Path, listener: tuple[str, list[str]]) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    address, requests = listener
    for prolog, title in (
            (f'<!DOCTYPE ROOT [<!ENTITY x SYSTEM "file://{secret}">]>', "&x;"),
            (f'<!DOCTYPE ROOT [<!ENTITY x SYSTEM "{address}/entity">]>', "&x;"),
            (f'<!DOCTYPE ROOT [<!ENTITY % p SYSTEM "{address}/dtd"> %p;]>', "t"),
            (f'<!DOCTYPE ROOT SYSTEM "{address}/external.dtd">', "t&x;")):
        outcome = read_bytes(reader, document(reader, title, prolog))
        said = str(outcome.error) + "".join(str(r.fields) for r in outcome.records)
        assert "TOP-SECRET" not in said and "FROM-SERVER" not in said, prolog
        if "[" in prolog:  # an internal subset is refused before parsing
            assert outcome.error is not None and "internal subset" in str(outcome.error)
    assert requests == []


@pytest.mark.parametrize("reader", XML_READERS)
def test_malformed_xml_is_an_error_naming_file_and_line(reader: str) -> None:
    outcome = read_bytes(reader, document(reader, "broken <b>tag</c> here"))
    assert outcome.error is not None
    assert ":3:" in str(outcome.error) and "not well-formed XML" in str(outcome.error)


@pytest.mark.parametrize("reader", XML_READERS)
def test_a_huge_field_is_an_error_with_its_line_not_a_crash(reader: str) -> None:
    outcome = read_bytes(reader, document(reader, "word " * 2_500_000))
    assert outcome.error is not None
    assert ":3:" in str(outcome.error)


@pytest.mark.parametrize("reader", XML_READERS)
def test_a_latin_1_document_without_a_declaration_reads_with_a_warning(reader: str) -> None:
    data = document(reader, "Análisis").replace(b' encoding="UTF-8"', b"")
    outcome = read_bytes(reader, data.decode().encode("latin-1"))
    assert [r.title for r in outcome.records] == ["Análisis"]
    assert [m.message.split(";")[0] for m in outcome.diagnostics.warnings] == [
        "not UTF-8 (byte 0xe1)"]


#: A first record of each tagged and CSV format, and the reader it must be detected as.
SPECIMENS: dict[str, bytes] = {
    "endnote": b"%0 Journal Article\n%T Title\n%A Qian, Z\n",
    "nbib": b"PMID- 123\nTI  - Title\nFAU - Qian, Z\n",
    "wos": b"FN Clarivate Analytics Web of Science\nVR 1.0\nPT J\nTI Title\nER\n\nEF\n",
    "scopus-csv": b"Authors,Title,Year,Source title,EID\nQian Z.,Title,2020,J,2-s2.0-1\n",
    "csv": b"title,author,issued\nTitle,\"Qian, Z\",2020\n",
    **{reader: document(reader, "Title") for reader in XML_READERS},
}


@pytest.mark.parametrize("reader", SPECIMENS)
def test_each_format_is_detected_by_its_content(reader: str) -> None:
    outcome = read_bytes(None, SPECIMENS[reader], name="export.dat")
    assert outcome.error is None
    assert [r.title for r in outcome.records] == ["Title"]
    assert outcome.records[0].id.startswith(("endnote", "pmid", "wos", "2-s2", "row", "mods",
                                             "word", "pubmed")), outcome.records[0].id


@pytest.mark.parametrize("reader", SPECIMENS)
def test_a_wide_field_reads_whole(reader: str) -> None:
    if reader in XML_READERS:
        data = document(reader, "x" * 1_000_000)
    else:
        head, _, tail = SPECIMENS[reader].rpartition(b"Title")  # the record's title
        data = head + b"x" * 1_000_000 + tail
    outcome = read_bytes(reader, data)
    assert [len(r.title or "") for r in outcome.records] == [1_000_000]
