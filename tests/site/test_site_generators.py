"""The pages of ``refbridge site`` built by the real generators: Hugo and Jekyll.

Each test copies a minimal site of ``tests/fixtures/site`` (no theme: a layout of its own that
prints the front-matter values Hugo Blox's and academicpages' layouts print, the same way),
writes the pages into it, builds it, and reads the built HTML: the titles, hostile ones
included, must show exactly as the records have them. Skipped when ``hugo`` or ``jekyll`` is
not installed (Debian's packages: ``apt-get install hugo jekyll``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import lxml.html
from support import ROOT, requires_tool, run_cli

FIXTURES = ROOT / "tests" / "fixtures" / "site"
LIBRARY = str(FIXTURES / "library.bib")
HOSTILE = str(FIXTURES / "hostile.json")
HOSTILE_TITLE = ('Joins: a --- b {{ .Site.Title }} {{< ref "x" >}} {% include x.html %} '
                 "<script>alert(1)</script> & *not bold*")


def built_site(tmp_path: Path, generator: str, command: list[str]) -> Path:
    source = tmp_path / generator
    shutil.copytree(FIXTURES / generator, source)
    status, _, stderr = run_cli("site", LIBRARY, HOSTILE, "--to", generator, "-o", str(source),
                                "--owner", "Zhengping Qian")
    assert (status, stderr.count("error")) == (0, 0)
    subprocess.run(command, cwd=source, check=True, capture_output=True, timeout=300)
    return source


def texts(page: Path, *ids: str) -> dict[str, str]:
    document = lxml.html.fromstring(page.read_bytes())
    return {name: document.get_element_by_id(name).text_content().strip() for name in ids}


def meta(page: Path) -> list[tuple[str, str]]:
    document = lxml.html.fromstring(page.read_bytes())
    return [(tag.get("name"), tag.get("content")) for tag in document.iter("meta")
            if tag.get("name")]


@requires_tool("hugo")
def test_hugo_shows_every_title_and_value_exactly(tmp_path: Path) -> None:
    source = built_site(tmp_path, "hugo", ["hugo", "--quiet", "-d", "public"])
    public = source / "public" / "publication"
    listing = lxml.html.fromstring((public / "index.html").read_bytes())
    assert sorted(a.text_content() for a in listing.iter("a")) == [
        "A Survey of Query Optimizers", HOSTILE_TITLE,
        "Learned Cardinality Estimation for SQL Joins",
        "Speculative Query Processing on Serverless Platforms"]
    assert texts(public / "qian2024hostile" / "index.html", "title", "publication",
                 "authors", "date", "types") == {
        "title": HOSTILE_TITLE, "publication": "Journal of Data & {{ site.title }}",
        "authors": "adminJane Doe", "date": "2024-05-17", "types": "article-journal"}
    assert "SITE-TITLE" not in (public / "qian2024hostile" / "index.html").read_text("utf-8")


@requires_tool("hugo")
def test_hugo_pages_carry_links_and_scholar_tags(tmp_path: Path) -> None:
    source = built_site(tmp_path, "hugo", ["hugo", "--quiet", "-d", "public"])
    page = source / "public" / "publication" / "yang2023speculative" / "index.html"
    assert texts(page, "pdf", "slides", "preprint", "publication") == {
        "pdf": "https://arxiv.org/pdf/2305.01234",
        "slides": "https://example.org/talks/speculative.pdf",
        "preprint": "https://arxiv.org/abs/2305.01234",
        "publication": "Proceedings of the 2023 International Conference on Management of Data"}
    assert meta(page) == [
        ("citation_title", "Speculative Query Processing on Serverless Platforms"),
        ("citation_author", "Yang, Qinwei"), ("citation_author", "Qian, Zhengping"),
        ("citation_publication_date", "2023"),
        ("citation_conference_title",
         "Proceedings of the 2023 International Conference on Management of Data"),
        ("citation_publisher", "ACM"), ("citation_firstpage", "45"),
        ("citation_lastpage", "58"), ("citation_arxiv_id", "2305.01234"),
        ("citation_pdf_url", "https://arxiv.org/pdf/2305.01234")]


@requires_tool("jekyll")
def test_jekyll_shows_every_title_and_value_exactly(tmp_path: Path) -> None:
    source = built_site(tmp_path, "jekyll", ["jekyll", "build", "--quiet", "-d", "_site"])
    page = source / "_site" / "publication" / "qian2024hostile" / "index.html"
    assert texts(page, "title", "title-markdown", "venue", "excerpt", "date") == {
        "title": HOSTILE_TITLE, "title-markdown": HOSTILE_TITLE,
        "venue": "Journal of Data & {{ site.title }}",
        "excerpt": "We {{ estimate }} joins: --- yes.", "date": "2024-05-17"}
    assert meta(page)[0] == ("citation_title", HOSTILE_TITLE)
    assert "SITE-TITLE" not in page.read_text("utf-8")


@requires_tool("jekyll")
def test_jekyll_pages_link_the_paper_the_bibtex_and_cite_the_work(tmp_path: Path) -> None:
    source = built_site(tmp_path, "jekyll", ["jekyll", "build", "--quiet", "-d", "_site"])
    page = source / "_site" / "publication" / "qian2024learned" / "index.html"
    assert texts(page, "paper", "bibtex", "citation") == {
        "paper": "https://example.org/papers/qian2024learned.pdf",
        "bibtex": "/files/qian2024learned.bib",
        "citation": "Qian, Z., Yang, Q., & Müller, A. (2024). Learned Cardinality Estimation "
                    "for SQL Joins. Proceedings of the VLDB Endowment, 17(7), 1611–1624. "
                    "https://doi.org/10.14778/3654621.3654630"}
    bold = lxml.html.fromstring(page.read_bytes()).get_element_by_id("citation").find(".//b")
    assert bold is not None and bold.text == "Qian, Z."
    assert (source / "_site" / "files" / "qian2024learned.bib").read_text("utf-8").startswith(
        "@article{qian2024learned,")
