"""PubMed XML (PubMed: *Send to → File → XML*; E-utilities ``efetch``), read.

``PubmedArticleSet`` holds ``PubmedArticle``s (``MedlineCitation`` with ``PMID``, ``Article``:
``Journal`` with ``ISSN``, ``JournalIssue`` (``Volume``, ``Issue``, ``PubDate``), ``Title`` and
``ISOAbbreviation``; ``ArticleTitle``; ``Pagination/MedlinePgn``; ``ELocationID``;
``Abstract/AbstractText`` (labelled sections become paragraphs ``LABEL: text``);
``AuthorList/Author`` (``LastName``, ``ForeName``, ``Suffix`` or ``CollectiveName``);
``Language``; ``PublicationTypeList``; ``KeywordList``; ``MeshHeadingList``; and
``PubmedData/ArticleIdList`` with the DOI and PMC ids) and ``PubmedBookArticle``s
(``BookDocument`` with ``Book``: ``BookTitle``, ``Publisher``, ``PubDate``, ``Isbn``, editors).
Inline markup of titles and abstracts (``<i>``, ``<b>``, ``<sup>``, ``<sub>``) is the model's
rich text. The document type declaration efetch writes is allowed and never loaded; entity
declarations are refused (``formats.xmlinput``). Indexing data the model has no slot for
(MeSH qualifiers, grants, affiliations, cited references, history dates) is not read. This
module must never drop a record silently.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.tagged import medline_tables as t
from refbridge.formats.tagged.medline import parse_date
from refbridge.formats.xml.safe import child, children, local_name, parse_xml, text_of
from refbridge.identifiers import clean_doi_field
from refbridge.model import Date, Name, Record, Source
from refbridge.names.reading import name_from_fields
from refbridge.richtext import Inline, Style, Text, inlines, rich, strip
from refbridge.richtext import styled as styled_inlines

#: Inline elements of PubMed's titles and abstracts -> text styles.
INLINE_STYLES: dict[str, str] = {"i": Style.ITALIC, "b": Style.BOLD, "sup": Style.SUPERSCRIPT,
                                 "sub": Style.SUBSCRIPT}
#: ``ArticleId``/``ELocationID`` kinds -> CSL variables.
IDENTIFIERS: dict[str, str] = {"doi": "DOI", "pmc": "PMCID", "pubmed": "PMID"}


def inline_text(element: Any | None) -> Text:
    """The rich text of an element with PubMed's inline markup."""
    if element is None:
        return ""

    def parts(node: Any) -> Iterator[Inline]:
        yield node.text or ""
        for item in node:
            content = tuple(parts(item))
            style = INLINE_STYLES.get(local_name(item))
            yield from styled_inlines(style, content) if style else content
            yield item.tail or ""

    return strip(rich(parts(element)))


def _either(element: Any | None, other: Any | None) -> Any | None:
    """``element``, or ``other`` when it is None (an lxml element's truth is its length)."""
    return other if element is None else element


def _path(element: Any | None, *names: str) -> Any | None:
    for name in names:
        if element is None:
            return None
        element = child(element, name)
    return element


def _authors(author_list: Any | None) -> list[Name]:
    people: list[Name] = []
    for author in children(author_list, "Author") if author_list is not None else ():
        collective = text_of(child(author, "CollectiveName"))
        last, fore = text_of(child(author, "LastName")), text_of(child(author, "ForeName"))
        fore = fore or text_of(child(author, "Initials"))
        if collective:
            people.append(Name(literal=collective))
        elif last or fore:
            people.append(name_from_fields(last or None, fore or None,
                                           text_of(child(author, "Suffix")) or None))
    return people


def _pub_date(element: Any | None, extra: dict[str, list[str]]) -> Date | None:
    if element is None:
        return None
    medline = text_of(child(element, "MedlineDate"))
    if medline:
        return parse_date(medline, extra)
    words = [text_of(child(element, n)) for n in ("Year", "Season", "Month", "Day")]
    text = " ".join(w for w in words if w)
    return parse_date(text, extra) if text else None


def _abstract(abstract: Any | None) -> Text:
    if abstract is None:
        return ""
    sections: list[Inline] = []
    for number, section in enumerate(children(abstract, "AbstractText")):
        label = section.get("Label")
        sections += ["\n"] if number else []
        sections += [f"{label}: "] if label else []
        sections += inlines(inline_text(section))
    return strip(rich(sections))


def record_of(article: Any, source: str, number: int, diagnostics: Diagnostics) -> Record:
    """The record of a ``PubmedArticle`` or ``PubmedBookArticle``."""
    citation = _either(child(article, "MedlineCitation"), child(article, "BookDocument"))
    if citation is None:
        raise ValueError("neither MedlineCitation nor BookDocument")
    body = _either(child(citation, "Article"), citation)
    journal, book = child(body, "Journal"), child(citation, "Book")
    fields: dict[str, Text] = {}
    extra: dict[str, list[str]] = {}
    names: dict[str, tuple[Name, ...]] = {}
    values = {
        "PMID": text_of(child(citation, "PMID")),
        "title": inline_text(child(body, "ArticleTitle")) or inline_text(
            child(book, "BookTitle") if book is not None else None),
        "container-title": text_of(child(journal, "Title")) if journal is not None
        else inline_text(child(book, "BookTitle")) if book is not None and child(
            body, "ArticleTitle") is not None else "",
        "container-title-short": text_of(child(journal, "ISOAbbreviation"))
        if journal is not None else "",
        "ISSN": text_of(child(journal, "ISSN")) if journal is not None else "",
        "volume": text_of(_path(journal, "JournalIssue", "Volume")),
        "issue": text_of(_path(journal, "JournalIssue", "Issue")),
        "page": text_of(_path(body, "Pagination", "MedlinePgn")) or "-".join(
            p for p in (text_of(_path(body, "Pagination", "StartPage")),
                        text_of(_path(body, "Pagination", "EndPage"))) if p),
        "abstract": _abstract(child(body, "Abstract")),
        "language": text_of(child(body, "Language")),
        "publisher": text_of(_path(book, "Publisher", "PublisherName")),
        "publisher-place": text_of(_path(book, "Publisher", "PublisherLocation")),
        "ISBN": text_of(child(book, "Isbn")) if book is not None else "",
    }
    fields.update({k: v for k, v in values.items() if v})
    for identifier in [*children(body, "ELocationID"), *children(
            _either(_path(article, "PubmedData", "ArticleIdList"), citation), "ArticleId"),
                       *children(_either(child(citation, "ArticleIdList"), citation),
                                 "ArticleId")]:
        kind = (identifier.get("EIdType") or identifier.get("IdType") or "").lower()
        if kind in IDENTIFIERS and text_of(identifier):
            fields.setdefault(IDENTIFIERS[kind], text_of(identifier))
    for author_list in [*children(body, "AuthorList"), *(
            children(book, "AuthorList") if book is not None else ())]:
        role = "editor" if author_list.get("Type") == "editors" else "author"
        people = _authors(author_list)
        if people and role not in names:
            names[role] = tuple(people)
    types = [text_of(p) for p in children(_either(child(body, "PublicationTypeList"), body),
                                          "PublicationType")]
    record_type = next((t.PUBLICATION_TYPES[p] for p in t.PUBLICATION_TYPES if p in types),
                       "article-journal" if journal is not None else "book")
    if local_name(article) == "PubmedBookArticle":
        record_type = "chapter" if child(body, "ArticleTitle") is not None else "book"
    keywords = [text_of(k) for k in citation.iter() if local_name(k) in ("Keyword",
                                                                          "DescriptorName")]
    issued = _pub_date(_path(journal, "JournalIssue", "PubDate") if journal is not None
                       else _path(book, "PubDate"), extra)
    clean_doi_field(fields)
    return Record(
        id=f"pmid{fields['PMID']}" if "PMID" in fields else f"pubmed{number}",
        type=record_type, fields=fields, names=names,
        dates={"issued": issued} if issued is not None else {},
        keywords=tuple(dict.fromkeys(k for k in keywords if k)),
        extra={k.replace("nbib.", "pubmed-xml."): "\n".join(v) for k, v in extra.items()},
        source=Source(source, article.sourceline or 1))


class PubmedXmlReader:
    name = "pubmed-xml"
    sniff_first = True
    description = "PubMed XML (PubMed: Send to → File → XML; efetch)"
    extensions = (".xml",)

    def sniff(self, head: str) -> bool:
        return "<PubmedArticleSet" in head or "<PubmedArticle>" in head

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        root = parse_xml(stream.read(), source, "PubMed XML")
        if local_name(root) not in ("PubmedArticleSet", "PubmedArticle", "PubmedBookArticle"):
            raise ParseError("not PubMed XML: the root element is not PubmedArticleSet",
                             source, root.sourceline)
        articles = [root] if local_name(root) != "PubmedArticleSet" else [
            e for e in root if local_name(e) in ("PubmedArticle", "PubmedBookArticle")]
        for number, article in enumerate(articles, start=1):
            try:
                yield record_of(article, source, number, diagnostics)
            except ValueError as exc:
                diagnostics.error(f"article skipped: {exc}", source, article.sourceline or 1)


READER = PubmedXmlReader()
