"""Writing .bib files in the two dialects: BibTeX (bibtex + .bst styles) and BibLaTeX (biber)."""

from __future__ import annotations

import io

from refbridge.errors import Diagnostics
from refbridge.formats.bibtex.reader import READER
from refbridge.formats.bibtex.writer import BIBLATEX_WRITER, BIBTEX_WRITER, BibtexWriter
from refbridge.latex.encode import guess_protection
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.pipeline import with_keys
from refbridge.registry import WriteOptions

PREPRINT = Record(
    id="qian2026specdb", type="article", citation_key="qian2026specdb",
    fields={"title": "SpecDB: LLM-Generated Customized Databases",
            "DOI": "10.48550/arXiv.2601.01234"},
    names={"author": (Name(family="Qian", given="Zhengping"),)},
    dates={"issued": Date.of(2026, 1)},
    eprint=Eprint("arXiv", "2601.01234v2", "cs.DB"),
    incomplete_names=frozenset({"author"}),
)
#: What a profile page knows of a preprint: no identifier, one author of several.
PROFILE_PREPRINT = Record(
    id="qian2026specdb", type="article", citation_key="qian2026specdb",
    fields={"title": "SpecDB"}, names={"author": (Name(family="Qian", given="Zhengping"),)},
    dates={"issued": Date.of(2026)}, eprint=Eprint("arXiv", primary_class="cs.DB"),
    incomplete_names=frozenset({"author"}),
)


def write(writer: BibtexWriter, *records: Record, **options: object) -> str:
    out = io.StringIO()
    writer.write(records, out, WriteOptions(**options))  # type: ignore[arg-type]
    return out.getvalue()


def read_back(text: str) -> list[Record]:
    return [r.replace(source=None) for r in
            READER.read(io.StringIO(text), "out.bib", Diagnostics(strict=True))]


def test_a_preprint_in_bibtex_follows_arxivs_export_and_helps_zotero() -> None:
    assert write(BIBTEX_WRITER, PREPRINT) == """\
@misc{qian2026specdb,
  author = {Qian, Zhengping and others},
  title = {{SpecDB}: {LLM}-Generated Customized Databases},
  howpublished = {arXiv preprint arXiv:2601.01234v2, cs.DB (Databases)},
  year = {2026},
  month = jan,
  doi = {10.48550/arXiv.2601.01234},
  eprint = {2601.01234v2},
  archivePrefix = {arXiv},
  primaryClass = {cs.DB},
  eprinttype = {arxiv},
  url = {https://arxiv.org/abs/2601.01234v2},
}
"""


def test_a_preprint_in_biblatex_is_an_online_entry_with_eprint_fields() -> None:
    assert write(BIBLATEX_WRITER, PREPRINT) == """\
@online{qian2026specdb,
  author = {Qian, Zhengping and others},
  title = {{SpecDB}: {LLM}-Generated Customized Databases},
  date = {2026-01},
  doi = {10.48550/arXiv.2601.01234},
  eprint = {2601.01234v2},
  eprinttype = {arxiv},
  eprintclass = {cs.DB},
  pubstate = {prepublished},
}
"""


def test_a_preprint_without_identifier_says_what_is_known_and_nothing_more() -> None:
    assert write(BIBTEX_WRITER, PROFILE_PREPRINT) == """\
@misc{qian2026specdb,
  author = {Qian, Zhengping and others},
  title = {{SpecDB}},
  howpublished = {arXiv preprint, cs.DB (Databases)},
  year = {2026},
  archivePrefix = {arXiv},
  primaryClass = {cs.DB},
  eprinttype = {arxiv},
}
"""
    assert write(BIBLATEX_WRITER, PROFILE_PREPRINT) == """\
@misc{qian2026specdb,
  author = {Qian, Zhengping and others},
  title = {{SpecDB}},
  howpublished = {arXiv preprint, cs.DB (Databases)},
  date = {2026},
  eprinttype = {arxiv},
  eprintclass = {cs.DB},
  pubstate = {prepublished},
}
"""


def guessed(record: Record) -> Record:
    """``record`` as a .bib gives it back: the title's acronyms protected."""
    return record.replace(fields={**record.fields,
                                  "title": guess_protection(record.fields["title"])})


def test_preprints_read_back_as_the_same_records_in_both_dialects() -> None:
    for writer in (BIBTEX_WRITER, BIBLATEX_WRITER):
        assert read_back(write(writer, PROFILE_PREPRINT)) == [guessed(PROFILE_PREPRINT)]
    assert read_back(write(BIBLATEX_WRITER, PREPRINT)) == [guessed(PREPRINT)]


HOSTILE_TEXT = "}\\input{/etc/passwd}{ 100% & $x_1$ #2 ~ ^ {unbalanced"


def test_hostile_text_is_written_as_literal_text() -> None:
    record = Record(id="h", type="book", citation_key="h", fields={"title": HOSTILE_TEXT})
    assert write(BIBTEX_WRITER, record) == (
        "@book{h,\n"
        "  title = {\\textbraceright{}\\textbackslash{}input\\textbraceleft{}/etc/passwd"
        "\\textbraceright{}\\textbraceleft{} 100\\% \\& \\$x\\_1\\$ \\#2 \\textasciitilde{} "
        "\\textasciicircum{} \\textbraceleft{}unbalanced},\n"
        "}\n")


def test_hostile_text_in_every_field_reads_back_the_same() -> None:
    record = Record(
        id="h", type="chapter", citation_key="h",
        fields={v: HOSTILE_TEXT for v in (
            "title", "container-title", "publisher", "publisher-place", "note", "abstract",
            "volume", "page", "edition", "collection-title", "collection-number")},
        names={"author": (Name(family="O'Brien_{x}&Co", given="Jane$ 100%"),),
               "editor": (Name(literal=HOSTILE_TEXT),)},
        keywords=(HOSTILE_TEXT,), dates={"issued": Date(literal=HOSTILE_TEXT)})
    for writer in (BIBTEX_WRITER, BIBLATEX_WRITER):
        assert read_back(write(writer, record)) == [record]


def test_non_ascii_is_written_as_latex_commands_or_as_utf8_on_request() -> None:
    record = Record(id="m", type="book", citation_key="m", fields={"publisher": "Müller & Łódź"})
    assert "publisher = {M{\\\"u}ller \\& {\\L}{\\'o}d{\\'z}}" in write(BIBTEX_WRITER, record)
    assert "publisher = {Müller \\& Łódź}" in write(BIBTEX_WRITER, record, unicode=True)


def test_identifiers_are_written_verbatim_and_unbalanced_braces_percent_encoded() -> None:
    record = Record(id="u", type="webpage", citation_key="u",
                    fields={"URL": "https://x.org/a_b%20c#d{e", "DOI": "10.1000/x_y"})
    text = write(BIBLATEX_WRITER, record)
    assert "url = {https://x.org/a_b%20c#d%7Be}" in text
    assert "doi = {10.1000/x_y}" in text


def test_chosen_fields_and_indentation_are_honoured() -> None:
    text = write(BIBTEX_WRITER, PREPRINT, include_fields=frozenset({"author", "title", "year"}),
                 indent="\t")
    assert text == ("@misc{qian2026specdb,\n\tauthor = {Qian, Zhengping and others},\n"
                    "\ttitle = {{SpecDB}: {LLM}-Generated Customized Databases},\n"
                    "\tyear = {2026},\n}\n")
    assert "doi" not in write(BIBTEX_WRITER, PREPRINT, exclude_fields=frozenset({"doi"}))


def test_a_chosen_field_order_comes_first() -> None:
    text = write(BIBLATEX_WRITER, PREPRINT, field_order=("date", "eprint", "title"))
    assert [line.split(" = ")[0].strip() for line in text.splitlines()[1:-1]] == [
        "date", "eprint", "title", "author", "doi", "eprinttype", "eprintclass", "pubstate"]


def test_fields_kept_from_a_bib_are_written_back_as_they_were() -> None:
    record = Record(id="k", type="book", citation_key="k", fields={"title": "T"},
                    extra={"bibtex.mrnumber": "MR0756512", "bibtex.langid": "english",
                           "bibtex.@type": "mvbook", "csl.custom": "{}"})
    assert write(BIBLATEX_WRITER, record) == (
        "@mvbook{k,\n  title = {T},\n  mrnumber = {MR0756512},\n  langid = {english},\n}\n")
    assert write(BIBTEX_WRITER, record).startswith("@book{k,")


def test_a_citation_key_cannot_break_the_entry() -> None:
    record = Record(id="x", type="book", citation_key="http://x.org/a b,{c}")
    assert write(BIBTEX_WRITER, record) == "@book{http://x.org/a-b--c-,\n}\n"


def test_theses_and_reports_use_each_dialects_types() -> None:
    thesis = Record(id="t", type="thesis", citation_key="t",
                    fields={"title": "T", "publisher": "MIT", "genre": "Master's thesis"})
    assert write(BIBTEX_WRITER, thesis) == \
        "@mastersthesis{t,\n  title = {T},\n  school = {MIT},\n}\n"
    assert write(BIBLATEX_WRITER, thesis) == \
        "@thesis{t,\n  title = {T},\n  type = {mathesis},\n  institution = {MIT},\n}\n"


def test_a_date_classic_bibtex_cannot_hold_is_also_written_as_a_biblatex_date() -> None:
    record = Record(id="d", type="book", citation_key="d",
                    dates={"issued": Date(start=DateParts(1984), circa=True)})
    assert write(BIBTEX_WRITER, record) == \
        "@book{d,\n  year = {1984},\n  date = {1984~},\n}\n"
    assert read_back(write(BIBTEX_WRITER, record)) == [record]


def test_preamble_and_comments_kept_from_a_bib_come_before_their_entry() -> None:
    record = Record(id="k", type="book", citation_key="k",
                    hints={"bibtex.preamble": '"\\newcommand{\\noop}[1]{}"',
                           "bibtex.comment": "jabref-meta: x;"})
    assert write(BIBTEX_WRITER, record) == (
        '@preamble{"\\newcommand{\\noop}[1]{}"}\n\n@comment{jabref-meta: x;}\n\n'
        "@book{k,\n}\n")


# -- a .bib read and written: what the source said, as it said it ----------------------------
HAND_CURATED = r"""@Article{knuth84,
  Author = {Donald E. Knuth and Andr\'e, Jacques},
  Title = {Literate Programming: a \emph{Practical} Guide},
  Subtitle = {With {\TeX} Examples},
  Journal = j-CJ,
  Year = {1984}, Month = {03},
  Pages = {97--111},
  Note = oct # " 10",
  Keywords = {programming; TeX},
  eprint = {0912.3747}, archivePrefix = {arXiv},
}
"""


def test_a_hand_curated_entry_is_written_as_it_was() -> None:
    records = read_back(HAND_CURATED)
    assert write(BIBTEX_WRITER, *records) == """\
@article{knuth84,
  author = {Donald E. Knuth and Andr\\'e, Jacques},
  title = {Literate Programming: a \\emph{Practical} Guide},
  subtitle = {With {\\TeX} Examples},
  journal = j-CJ,
  year = {1984},
  month = {03},
  pages = {97--111},
  note = oct # " 10",
  keywords = {programming; TeX},
  eprint = {0912.3747},
  archivePrefix = {arXiv},
}
"""


def test_a_normalised_entry_is_written_the_writers_way() -> None:
    records = read_back(HAND_CURATED)
    assert write(BIBLATEX_WRITER, *records, normalize=True) == """\
@article{knuth84,
  author = {Knuth, Donald E. and Andr{\\'e}, Jacques},
  title = {Literate Programming: a \\textit{Practical} Guide: With {\\TeX} Examples},
  journaltitle = {j-CJ},
  pages = {97--111},
  date = {1984-03},
  eprint = {0912.3747},
  eprinttype = {arxiv},
  note = {October 10},
  keywords = {programming, TeX},
}
"""


def test_a_field_given_twice_is_written_twice_for_biber_reads_the_second() -> None:
    (record,) = read_back("@misc{k, note = {first}, note = {second}}")
    assert write(BIBTEX_WRITER, record) == "@misc{k,\n  note = {first},\n  note = {second},\n}\n"


def test_year_and_date_given_both_are_written_both_and_nothing_more() -> None:
    (record,) = read_back("@phdthesis{k, title = {T}, school = {VU}, year = 2010,\n"
                          "  date = {2010-10-01}}")
    assert write(BIBTEX_WRITER, record) == ("@phdthesis{k,\n  title = {T},\n  school = {VU},\n"
                                            "  year = {2010},\n  date = {2010-10-01},\n}\n")


def test_a_month_the_date_contradicts_is_written_as_it_was_beside_the_date() -> None:
    (record,) = read_back("@techreport{k, title = {T}, institution = {W3C}, year = 2009,\n"
                          "  month = jan, date = {2009-10-20}}")
    assert write(BIBTEX_WRITER, record) == (
        "@techreport{k,\n  title = {T},\n  institution = {W3C},\n  year = {2009},\n"
        "  month = jan,\n  date = {2009-10-20},\n}\n")


def test_a_month_macro_as_a_date_is_written_as_the_macro() -> None:
    (record,) = read_back("@phdthesis{k, title = {T}, school = {S}, year = {1993}, date = dec}")
    assert write(BIBTEX_WRITER, record) == (
        "@phdthesis{k,\n  title = {T},\n  school = {S},\n  year = {1993},\n"
        "  date = dec,\n}\n")


def test_an_entry_type_no_dialect_knows_is_written_as_it_was() -> None:
    (record,) = read_back("@README{k, title = {Read me}}")
    assert write(BIBLATEX_WRITER, record).startswith("@README{k,") is False
    assert write(BIBLATEX_WRITER, record).startswith("@readme{k,")


def test_what_a_crossref_child_inherited_is_not_written_while_it_has_its_crossref() -> None:
    records = read_back("@inproceedings{c, title = {Ch}, crossref = {p}}\n"
                        "@proceedings{p, title = {Proc}, year = 2001, publisher = {ACM}}\n")
    child = next(r for r in records if r.citation_key == "c")
    assert child.get("container-title") == "Proc" and child.get("publisher") == "ACM"
    assert write(BIBTEX_WRITER, child) == \
        "@inproceedings{c,\n  title = {Ch},\n  crossref = {p},\n}\n"


def test_keywords_a_crossref_child_inherited_are_not_written_while_it_has_its_crossref() -> None:
    records = read_back("@inproceedings{c, title = {Ch}, crossref = {p}}\n"
                        "@proceedings{p, title = {Proc}, keywords = {sensors}}\n")
    child = next(r for r in records if r.citation_key == "c")
    assert child.keywords == ("sensors",)
    assert write(BIBTEX_WRITER, child) == \
        "@inproceedings{c,\n  title = {Ch},\n  crossref = {p},\n}\n"


def test_a_repeated_key_is_written_again_for_bibtex_and_biber_read_the_first() -> None:
    records = read_back("@misc{k, title = {One}}\n@misc{k, title = {Two}}\n")
    out = io.StringIO()
    BIBTEX_WRITER.write(with_keys(records, WriteOptions()), out, WriteOptions())
    assert out.getvalue() == ("@misc{k,\n  title = {One},\n}\n\n"
                              "@misc{k,\n  title = {Two},\n}\n")
