"""``refbridge site``: one page per work, stable slugs, incremental writing, links, Scholar tags."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import ROOT, run_cli

from refbridge.model import Date, Name, Record
from refbridge.site import SiteOptions, SiteReport, frontmatter, write_site
from refbridge.site.scholar_meta import scholar_tags
from refbridge.site.slugs import content_slug, record_slug

FIXTURES = ROOT / "tests" / "fixtures" / "site"
LIBRARY = str(FIXTURES / "library.bib")
HOSTILE = str(FIXTURES / "hostile.json")
OWNER = "Zhengping Qian"
TODAY = date(2026, 1, 15)
LEARNED = "content/publication/qian2024learned/index.md"


def site(directory: Path, *inputs: str, generator: str = "hugo", **options: Any) -> SiteReport:
    return write_site(list(inputs) or [LIBRARY], str(directory),
                      SiteOptions(generator=generator, owners=(OWNER,), **options),
                      today=TODAY)


def page(directory: Path, path: str = LEARNED) -> tuple[dict[str, object], str]:
    return frontmatter.split((directory / path).read_text("utf-8"), path)


def test_a_hugo_blox_page_has_the_front_matter_hugo_blox_reads(tmp_path: Path) -> None:
    site(tmp_path)
    data, body = page(tmp_path)
    assert {key: value for key, value in data.items() if key != "scholar_meta"} == {
        "title": "Learned Cardinality Estimation for SQL Joins",
        "authors": ["admin", "Qinwei Yang", "Anna Müller"],
        "date": date(2024, 3, 1),
        "publishDate": TODAY,
        "publication_types": ["article-journal"],
        "publication": "*Proceedings of the VLDB Endowment*",
        "abstract": "We learn join cardinalities from query logs.",
        "doi": "10.14778/3654621.3654630",
        "tags": ["cardinality estimation", "query optimization"],
        "featured": False,
        "url_pdf": "https://example.org/papers/qian2024learned.pdf",
        "url_code": "https://github.com/example/learned-cardinality",
    }
    assert body == ""


def hugo_authors(directory: Path, bib: str) -> object:
    (directory / "refs.bib").write_text(bib, encoding="utf-8")
    site(directory / "site", str(directory / "refs.bib"))
    return page(directory / "site", "content/publication/lee2020shared/index.md")[0]["authors"]


def test_an_incomplete_author_list_ends_in_et_al(tmp_path: Path) -> None:
    bib = ("@article{lee2020shared,\n  author = {Lee, Bob and Qian, Zhengping and others},\n"
           "  title = {Shared work},\n  journal = {J. Tests},\n  year = {2020}\n}\n")
    assert hugo_authors(tmp_path, bib) == ["Bob Lee", "admin", "et al."]


def test_an_incomplete_list_without_the_owner_keeps_its_authors(tmp_path: Path) -> None:
    bib = ("@article{lee2020shared,\n  author = {Lee, Bob and others},\n"
           "  title = {Shared work},\n  journal = {J. Tests},\n  year = {2020}\n}\n")
    assert hugo_authors(tmp_path, bib) == ["Bob Lee", "et al."]


SHARED_WORK = ("@article{lee2020shared,\n  author = {Lee, Bob and Qian, Zhengping and others},\n"
               "  title = {Shared work},\n  journal = {J. Tests},\n  year = {2020}\n}\n")


def test_a_standalone_page_ends_an_incomplete_author_list_in_et_al(tmp_path: Path) -> None:
    import lxml.html

    (tmp_path / "refs.bib").write_text(SHARED_WORK, encoding="utf-8")
    site(tmp_path / "site", str(tmp_path / "refs.bib"), generator="html")
    document = lxml.html.parse(str(tmp_path / "site/publication/lee2020shared/index.html"))
    [authors] = document.getroot().find_class("work-authors")
    assert lxml.html.tostring(authors, encoding="unicode") == (
        '<p class="work-authors">Bob Lee, <strong>Zhengping Qian</strong>, et al.</p>\n')


def test_an_academicpages_citation_ends_an_incomplete_author_list_in_et_al(
        tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(SHARED_WORK, encoding="utf-8")
    site(tmp_path / "site", str(tmp_path / "refs.bib"), generator="jekyll")
    data, _ = page(tmp_path / "site", "_publications/2020-01-01-lee2020shared.md")
    assert data["citation"] == ('<div class="csl-entry">Lee, B., <b>Qian, Z.</b>, et al. '
                                "(2020). Shared work. <i>J. Tests</i>.</div>")


def test_hugo_blox_publication_types_follow_its_codes(tmp_path: Path) -> None:
    site(tmp_path)
    types = {path: page(tmp_path, f"content/publication/{path}/index.md")[0]["publication_types"]
             for path in ("qian2024learned", "yang2023speculative", "qian2025survey")}
    assert types == {"qian2024learned": ["article-journal"],
                     "yang2023speculative": ["paper-conference"],
                     "qian2025survey": ["article"]}


def test_cite_bib_is_the_entry_as_the_bibtex_writer_writes_it(tmp_path: Path) -> None:
    site(tmp_path)
    assert (tmp_path / "content/publication/qian2025survey/cite.bib").read_text("utf-8") == (
        "@misc{qian2025survey,\n"
        "  title = {A Survey of Query Optimizers},\n"
        "  author = {Qian, Zhengping},\n"
        "  year = {2025},\n"
        "  eprint = {2501.04321},\n"
        "  archivePrefix = {arXiv},\n"
        "  primaryClass = {cs.DB},\n"
        "}\n")


def test_links_come_from_pdf_code_slides_fields_and_arxiv(tmp_path: Path) -> None:
    site(tmp_path)
    data = page(tmp_path, "content/publication/yang2023speculative/index.md")[0]
    assert {key: value for key, value in data.items() if key.startswith("url_")} == {
        "url_pdf": "https://arxiv.org/pdf/2305.01234",
        "url_slides": "https://example.org/talks/speculative.pdf",
        "url_preprint": "https://arxiv.org/abs/2305.01234",
    }


def test_a_link_option_takes_a_kind_from_another_field_or_drops_it(tmp_path: Path) -> None:
    site(tmp_path, links={"pdf": "slides", "slides": ""})
    data = page(tmp_path, "content/publication/yang2023speculative/index.md")[0]
    assert {key: value for key, value in data.items() if key.startswith("url_")} == {
        "url_pdf": "https://example.org/talks/speculative.pdf",
        "url_preprint": "https://arxiv.org/abs/2305.01234",
    }


def test_a_link_field_that_is_no_web_address_is_reported_not_linked(tmp_path: Path) -> None:
    library = tmp_path / "local.bib"
    library.write_text("@article{qian2022local,\n  title = {Local Files},\n  author = {Qian, "
                       "Zhengping},\n  journal = {J},\n  year = {2022},\n  file = {:papers/"
                       "local.pdf:PDF},\n}\n", "utf-8")
    report = site(tmp_path / "out", str(library))
    data = page(tmp_path / "out", "content/publication/qian2022local/index.md")[0]
    assert not any(key.startswith("url_") for key in data)
    assert [str(m) for m in report.diagnostics.messages] == [
        (f"{library}:1: warning: record 'qian2022local': file ':papers/local.pdf:PDF' is not an "
        "http(s) address; the page does not link it as pdf")]


def test_an_academicpages_page_has_the_front_matter_of_its_publications(tmp_path: Path) -> None:
    site(tmp_path, generator="jekyll")
    path = "_publications/2024-03-01-qian2024learned.md"
    data = page(tmp_path, path)[0]
    assert {key: value for key, value in data.items() if key != "scholar_meta"} == {
        "title": "Learned Cardinality Estimation for SQL Joins",
        "collection": "publications",
        "permalink": "/publication/qian2024learned/",
        "excerpt": "We learn join cardinalities from query logs.",
        "date": date(2024, 3, 1),
        "venue": "Proceedings of the VLDB Endowment",
        "paperurl": "https://example.org/papers/qian2024learned.pdf",
        "bibtexurl": "/files/qian2024learned.bib",
        "citation": '<div class="csl-entry"><b>Qian, Z.</b>, Yang, Q., &#38; Müller, A. (2024). '
                    "Learned Cardinality Estimation for SQL Joins. <i>Proceedings of the VLDB "
                    "Endowment</i>, <i>17</i>(7), 1611–1624. "
                    '<a href="https://doi.org/10.14778/3654621.3654630">'
                    "https://doi.org/10.14778/3654621.3654630</a></div>",
    }
    assert (tmp_path / "files/qian2024learned.bib").read_text("utf-8").startswith(
        "@article{qian2024learned,\n")


def test_scholar_tags_name_the_work_its_authors_venue_and_pdf(tmp_path: Path) -> None:
    site(tmp_path)
    assert page(tmp_path)[0]["scholar_meta"] == [
        {"name": "citation_title", "content": "Learned Cardinality Estimation for SQL Joins"},
        {"name": "citation_author", "content": "Qian, Zhengping"},
        {"name": "citation_author", "content": "Yang, Qinwei"},
        {"name": "citation_author", "content": "Müller, Anna"},
        {"name": "citation_publication_date", "content": "2024/03"},
        {"name": "citation_journal_title", "content": "Proceedings of the VLDB Endowment"},
        {"name": "citation_volume", "content": "17"},
        {"name": "citation_issue", "content": "7"},
        {"name": "citation_doi", "content": "10.14778/3654621.3654630"},
        {"name": "citation_firstpage", "content": "1611"},
        {"name": "citation_lastpage", "content": "1624"},
        {"name": "citation_pdf_url", "content": "https://example.org/papers/qian2024learned.pdf"},
    ]


def test_a_conference_paper_and_a_preprint_get_their_own_scholar_tags() -> None:
    paper = Record("p", "paper-conference", {"title": "Joins", "container-title": "SIGMOD '23"},
                   {"author": (Name(family="Yang", given="Qinwei"),)},
                   {"issued": Date.of(2023, 6, 18)}, extra={"arxiv.id": "2305.01234"})
    assert scholar_tags(paper, {"pdf": "https://arxiv.org/pdf/2305.01234"}) == [
        ("citation_title", "Joins"), ("citation_author", "Yang, Qinwei"),
        ("citation_publication_date", "2023/06/18"),
        ("citation_conference_title", "SIGMOD '23"),
        ("citation_pdf_url", "https://arxiv.org/pdf/2305.01234")]


def test_a_slug_is_the_input_key_else_year_author_and_title_words() -> None:
    keyed = Record("x", "book", {"title": "On the Art"}, citation_key="Knuth:1968/TAOCP")
    unkeyed = Record("y", "book", {"title": "The Art of Computer Programming"},
                     {"author": (Name(family="Knuth", given="Donald"),)},
                     {"issued": Date.of(1968)})
    assert (record_slug(keyed), record_slug(unkeyed)) == (
        "knuth-1968-taocp", "1968-knuth-art-computer-programming")
    assert content_slug(Record("z", "book")) == "untitled"


def test_a_second_run_on_the_same_library_rewrites_nothing(tmp_path: Path) -> None:
    site(tmp_path)
    old = {path: path.stat().st_mtime_ns for path in tmp_path.rglob("*") if path.is_file()}
    for path in old:
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    report = write_site([LIBRARY], str(tmp_path), SiteOptions(owners=(OWNER,)),
                        today=date(2026, 6, 1))
    assert (report.changes.created, report.changes.updated, report.changes.unchanged) == ([], [],
                                                                                          6)
    assert {path.stat().st_mtime_ns for path in old} == {1_000_000_000}
    assert page(tmp_path)[0]["publishDate"] == TODAY


def test_an_edited_body_and_added_keys_survive_a_changed_record(tmp_path: Path) -> None:
    site(tmp_path)
    edited = (tmp_path / LEARNED).read_text("utf-8").replace(
        "featured: false\n", "featured: true\nprojects:\n- joins\n") + "My notes: {{< figure >}}\n"
    (tmp_path / LEARNED).write_text(edited, "utf-8")
    changed = tmp_path / "changed.bib"
    changed.write_text(Path(LIBRARY).read_text("utf-8").replace(
        "We learn join cardinalities", "We learn join sizes"), "utf-8")
    report = site(tmp_path, str(changed))
    data, body = page(tmp_path)
    assert report.changes.updated == [LEARNED, LEARNED.replace("index.md", "cite.bib")]
    assert (data["abstract"], data["featured"], data["projects"], body) == (
        "We learn join sizes from query logs.", True, ["joins"], "My notes: {{< figure >}}\n")


def test_a_slug_stays_when_the_title_and_key_change_but_the_doi_does_not(tmp_path: Path) -> None:
    site(tmp_path)
    renamed = tmp_path / "renamed.bib"
    renamed.write_text(Path(LIBRARY).read_text("utf-8").replace(
        "qian2024learned,", "Qian2024Joins,").replace("for {SQL} Joins", "for Joins"), "utf-8")
    report = site(tmp_path, str(renamed))
    assert report.changes.created == [] and report.changes.orphans == []
    assert page(tmp_path)[0]["title"] == "Learned Cardinality Estimation for Joins"


def test_a_work_that_left_the_library_is_reported_and_pruned_only_when_asked(
        tmp_path: Path) -> None:
    site(tmp_path)
    fewer = tmp_path / "fewer.bib"
    fewer.write_text(Path(LIBRARY).read_text("utf-8").split("@misc")[0], "utf-8")
    kept = site(tmp_path, str(fewer))
    assert kept.changes.orphans == ["content/publication/qian2025survey/index.md",
                                    "content/publication/qian2025survey/cite.bib"]
    assert (tmp_path / "content/publication/qian2025survey/index.md").exists()
    pruned = site(tmp_path, str(fewer), prune=True)
    assert pruned.changes.pruned == kept.changes.orphans
    assert not (tmp_path / "content/publication/qian2025survey").exists()
    assert site(tmp_path, str(fewer)).changes.orphans == []


def test_a_page_of_the_users_own_with_the_same_slug_is_never_taken_over(tmp_path: Path) -> None:
    own = tmp_path / LEARNED
    own.parent.mkdir(parents=True)
    own.write_text("---\ntitle: Mine\n---\nHand-written.\n", "utf-8")
    site(tmp_path)
    assert own.read_text("utf-8") == "---\ntitle: Mine\n---\nHand-written.\n"
    assert page(tmp_path, "content/publication/qian2024learned-2/index.md")[0]["title"] == (
        "Learned Cardinality Estimation for SQL Joins")


def test_hostile_text_stays_data_in_the_front_matter(tmp_path: Path) -> None:
    site(tmp_path, HOSTILE)
    text = (tmp_path / "content/publication/qian2024hostile/index.md").read_text("utf-8")
    data = yaml.safe_load(text.split("---\n", 2)[1])
    assert data["title"] == ('Joins: a --- b {{ .Site.Title }} {{< ref "x" >}} {% include x.html %} '
                             "<script>alert(1)</script> & *not bold*")
    assert data["publication"] == "*Journal of Data & {{ site.title }}*"
    assert text.count("\n---\n") == 1  # the closing delimiter only


def test_a_page_whose_front_matter_the_user_broke_stops_the_run_and_is_left_alone(
        tmp_path: Path) -> None:
    site(tmp_path)
    broken = "---\ntitle: [unclosed\n---\nBody\n"
    (tmp_path / LEARNED).write_text(broken, "utf-8")
    status, _, stderr = run_cli("site", LIBRARY, "--to", "hugo", "-o", str(tmp_path),
                                "--owner", OWNER)
    assert status == 1
    assert stderr.startswith(f"refbridge: error: {tmp_path / LEARNED}:3: the front matter is not "
                             "valid YAML")
    assert (tmp_path / LEARNED).read_text("utf-8") == broken


def test_the_command_says_what_it_wrote(tmp_path: Path) -> None:
    status, stdout, stderr = run_cli("site", LIBRARY, "--to", "jekyll", "-o", str(tmp_path),
                                     "--owner", OWNER)
    assert (status, stdout, stderr) == (
        0, "", "refbridge: site: 3 works: 6 files written (6 new, 0 updated), 0 unchanged\n")


def test_a_links_file_maps_kinds_to_fields(tmp_path: Path) -> None:
    mapping = tmp_path / "links.toml"
    mapping.write_text('[links]\ncode = "slides"\n', "utf-8")
    status, _, _ = run_cli("site", LIBRARY, "--to", "hugo", "-o", str(tmp_path / "out"),
                           "--links-file", str(mapping))
    data = page(tmp_path / "out", "content/publication/yang2023speculative/index.md")[0]
    assert (status, data["url_code"]) == (0, "https://example.org/talks/speculative.pdf")


@pytest.mark.parametrize(("args", "message"), [
    (["--to", "wordpress"], ("refbridge: error: unknown site generator 'wordpress' (choose from "
                            "hugo, jekyll, html)\n")),
    (["--to", "hugo", "--link", "thesis=pdf"],
     ("refbridge: error: unknown kind of link 'thesis' in --link (choose from pdf, code, slides, "
     "video, dataset, poster, preprint, source)\n")),
])
def test_an_unknown_generator_or_link_kind_is_a_usage_error(tmp_path: Path, args: list[str],
                                                            message: str) -> None:
    status, _, stderr = run_cli("site", LIBRARY, "-o", str(tmp_path), *args)
    assert (status, stderr) == (2, message)
    assert list(tmp_path.iterdir()) == []


def test_a_site_made_for_one_generator_is_not_written_over_by_the_other(tmp_path: Path) -> None:
    site(tmp_path)
    status, _, stderr = run_cli("site", LIBRARY, "--to", "jekyll", "-o", str(tmp_path))
    assert (status, stderr) == (1, (f"refbridge: error: {tmp_path}: its pages were made for "
                                   "hugo, not jekyll (see .refbridge-site.json)\n"))


def test_pruning_the_last_page_of_a_collection_keeps_its_folders(tmp_path: Path) -> None:
    one = tmp_path / "one.bib"
    one.write_text(Path(LIBRARY).read_text("utf-8").split("@inproceedings")[0], "utf-8")
    site(tmp_path, str(one), generator="jekyll")
    empty = tmp_path / "empty.bib"
    empty.write_text("", "utf-8")
    report = site(tmp_path, str(empty), generator="jekyll", prune=True)
    assert report.changes.pruned == ["_publications/2024-03-01-qian2024learned.md",
                                     "files/qian2024learned.bib"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".refbridge-site.json", "_publications", "empty.bib", "files", "one.bib"]


def test_a_standalone_page_has_scholar_tags_and_shows_hostile_text_as_text(
        tmp_path: Path) -> None:
    import lxml.html

    site(tmp_path, HOSTILE, LIBRARY, generator="html")
    text = (tmp_path / "publication/qian2024hostile/index.html").read_text("utf-8")
    document = lxml.html.fromstring(text)
    title = ('Joins: a --- b {{ .Site.Title }} {{< ref "x" >}} {% include x.html %} '
             "<script>alert(1)</script> & *not bold*")
    assert [(e.get("name"), e.get("content")) for e in document.iter("meta")][2:] == [
        ("citation_title", title), ("citation_author", "Qian, Zhengping"),
        ("citation_author", "Doe, Jane"), ("citation_publication_date", "2024/05/17"),
        ("citation_journal_title", "Journal of Data & {{ site.title }}")]
    assert document.find_class("work-title")[0].text_content() == title
    assert [e.tag for e in document.iter("script")] == []
    assert "{{" not in text and "{%" not in text


def test_a_standalone_page_links_the_work_and_bolds_the_owner(tmp_path: Path) -> None:
    import lxml.html

    site(tmp_path, generator="html")
    document = lxml.html.parse(str(tmp_path / "publication/yang2023speculative/index.html"))
    assert [(a.text, a.get("href")) for a in document.iter("a")
            if a.getparent().tag == "li"] == [
        ("PDF", "https://arxiv.org/pdf/2305.01234"),
        ("Slides", "https://example.org/talks/speculative.pdf"),
        ("Preprint", "https://arxiv.org/abs/2305.01234")]
    assert [b.text for b in document.iter("strong")] == ["Zhengping Qian"]
