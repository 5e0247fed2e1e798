"""An entity a document's DTD would define (the DTD is never read): kept as its text in the
value, reported with file, line and name, the record kept (exit status 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import run_cli

ENDNOTE_XML = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE xml SYSTEM "endnote.dtd">
<xml><records>
<record><ref-type name="Journal Article">17</ref-type>
<titles><title>Caf&eacute; &amp; Society</title></titles>
<dates><year>2020</year></dates></record>
<record><ref-type name="Journal Article">17</ref-type><titles><title>Second</title></titles>
</record>
</records></xml>
"""
PUBMED_XML = """<?xml version="1.0" ?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2024//EN" \
"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_240101.dtd">
<PubmedArticleSet>
<PubmedArticle><MedlineCitation><PMID Version="1">111</PMID><Article>
<Journal><Title>J Tests</Title></Journal>
<ArticleTitle>Caf&eacute; effects.</ArticleTitle></Article></MedlineCitation></PubmedArticle>
<PubmedArticle><MedlineCitation><PMID Version="1">222</PMID><Article>
<Journal><Title>J Tests</Title></Journal>
<ArticleTitle>Second.</ArticleTitle></Article></MedlineCitation></PubmedArticle>
</PubmedArticleSet>
"""


@pytest.mark.parametrize(("reader", "document", "what", "line", "title"), [
    ("endnote-xml", ENDNOTE_XML, "EndNote XML", 5, "Caf&eacute; & Society"),
    ("pubmed-xml", PUBMED_XML, "PubMed XML", 6, "Caf&eacute; effects"),
])
def test_an_undefined_entity_is_kept_as_text_and_reported(
        reader: str, document: str, what: str, line: int, title: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("in.xml").write_text(document, encoding="utf-8")
    status, _, stderr = run_cli("convert", "in.xml", "--from", reader, "--to", "ris",
                                "-o", "out.ris")
    assert (status, stderr.splitlines()) == (3, [
        (f"in.xml:{line}: warning: {what}: entity &eacute; is not defined in the document "
        "(its DTD is not read): kept as the text &eacute;"),
        "refbridge: 1 value(s) changed to be written"])
    titles = [row[6:] for row in Path("out.ris").read_text(encoding="utf-8").splitlines()
              if row.startswith("TI  - ")]
    assert titles == [title, "Second"]
