"""PubMed XML (PubMed: *Send to → File → XML*; E-utilities ``efetch``), read.

``PubmedArticleSet`` (or ``PubmedBookArticleSet``, or one bare ``PubmedArticle`` or
``PubmedBookArticle``) holds ``PubmedArticle``s (``MedlineCitation`` with ``PMID``, ``Article``:
``Journal`` with ``ISSN``, ``JournalIssue`` (``Volume``, ``Issue``, ``PubDate``), ``Title`` and
``ISOAbbreviation``; ``ArticleTitle``, or ``VernacularTitle`` when it is empty (else kept as
``pubmed-xml.VernacularTitle``); ``Pagination/MedlinePgn``; ``ELocationID`` (``doi``: the
DOI; ``pii``: the page, as Zotero reads it, when there is no page range, else
``pubmed-xml.pii``);
``Abstract/AbstractText`` (labelled sections become paragraphs ``LABEL: text``);
``AuthorList/Author`` (``LastName``, ``ForeName``, ``Suffix`` or ``CollectiveName``);
``Language``; ``PublicationTypeList``; ``KeywordList``; ``MeshHeadingList`` (the descriptors
as keywords, as Zotero reads them; the qualifiers and major-topic marks kept in MEDLINE's
``MH`` notation as ``pubmed-xml.MeshHeading``); and
``PubmedData/ArticleIdList`` with the DOI and PMC ids) and ``PubmedBookArticle``s
(``BookDocument`` with ``Book``: ``BookTitle``, ``Publisher``, ``PubDate``, ``Isbn``,
``Edition``, ``Volume``, ``CollectionTitle``, authors and editors; a chapter's own
``ArticleTitle`` and authors, the book's authors then being its container authors; the
``bookaccession`` id as call number and NCBI Bookshelf address, as Zotero reads it).
Inline markup of titles and abstracts (``<i>``, ``<b>``, ``<sup>``, ``<sub>``) is the model's
rich text, as is MathML (``formats.xml.mathml``: Unicode text with sub- and superscripts); the line breaks and indentation of a pretty-printed file are layout, not text,
and become one space. The document type declaration efetch writes is allowed and never
loaded; entity declarations are refused (``formats.xml.safe``). ``ELEMENTS`` lists every
element this reader knows: what it reads, what it keeps as ``pubmed-xml.*`` extras, and what
it does not carry (grants, affiliations, cited references, history dates),
which is reported once per file, as is an unknown element. This module must never drop a
record silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.tagged import medline_tables as t
from refbridge.formats.tagged.medline import medline_pages, parse_date
from refbridge.formats.xml import mathml
from refbridge.formats.xml.safe import (
    READ,
    WHOLE,
    child,
    children,
    local_name,
    parse_xml,
    report_unread,
    text_of,
)
from refbridge.identifiers import clean_doi_field
from refbridge.model import Date, Name, Record, Source, add_extra_line, extra_key
from refbridge.names.reading import name_from_fields
from refbridge.richtext import Inline, Style, Text, inlines, map_last, plain, rich, strip
from refbridge.richtext import styled as styled_inlines

#: Inline elements of PubMed's titles and abstracts -> text styles.
INLINE_STYLES: dict[str, str] = {"i": Style.ITALIC, "b": Style.BOLD, "sup": Style.SUPERSCRIPT,
                                 "sub": Style.SUBSCRIPT}
#: ``ArticleId``/``ELocationID`` kinds -> CSL variables.
IDENTIFIERS: dict[str, str] = {"doi": "DOI", "pmc": "PMCID", "pubmed": "PMID",
                               "bookaccession": "call-number"}
#: Simple elements kept as ``pubmed-xml.<element>`` extras (no CSL variable holds them).
KEPT: tuple[str, ...] = ("CopyrightInformation", "PublicationStatus", "MedlineTA",
                         "NlmUniqueID", "ISSNLinking", "VernacularTitle")
#: ``ELocationID`` kinds kept as ``pubmed-xml.<kind>`` extras when the page is taken.
KEPT_LOCATIONS: tuple[str, ...] = ("pii",)
_NOT_MODELLED = "the model has no slot for it"
#: Elements read into another form than their text (names, dates, the type): element -> how.
RECOMPOSED: dict[str, str] = {
    "Initials": "the initials of ForeName, read when there is no ForeName",
    "ArticleTitle": "the title, without the period MEDLINE ends it with",
    "VernacularTitle": "the title when ArticleTitle is empty, without MEDLINE's final period",
    "MedlinePgn": "the pages, each range written out (132-42: 132-142)",
    **dict.fromkeys(("Year", "Season", "Month", "Day", "MedlineDate"), "the issued date"),
}
#: Root elements holding articles, and the articles (either may be the root).
SETS: tuple[str, ...] = ("PubmedArticleSet", "PubmedBookArticleSet")
ARTICLES: tuple[str, ...] = ("PubmedArticle", "PubmedBookArticle")
#: Every element this reader knows (see ``safe.report_unread``): read, read whole, or why not.
ELEMENTS: dict[str, str] = {
    **dict.fromkeys((
        "PubmedArticle", "PubmedBookArticle", "MedlineCitation", "BookDocument", "Article",
        "Journal", "JournalIssue", "PubDate", "Book", "Pagination", "Abstract", "AuthorList",
        "Author", "PublicationTypeList", "KeywordList", "MeshHeadingList", "MeshHeading",
        "PubmedData", "PubmedBookData", "ArticleIdList", "Publisher", "MedlineJournalInfo"),
        READ),
    **dict.fromkeys((
        "PMID", "ISSN", "Volume", "Issue", "Year", "Season", "Month", "Day", "MedlineDate",
        "Title", "ISOAbbreviation", "ArticleTitle", "VernacularTitle", "BookTitle",
        "MedlinePgn", "StartPage", "EndPage", "ELocationID", "AbstractText", "LastName",
        "ForeName", "FirstName", "Initials", "Suffix", "CollectiveName", "Language",
        "PublicationType", "Keyword", "DescriptorName", "QualifierName", "ArticleId", "PublisherName",
        "PublisherLocation", "Isbn", "Edition", "CollectionTitle", "CopyrightInformation",
        "PublicationStatus", "MedlineTA", "NlmUniqueID", "ISSNLinking"), WHOLE),
    "Country": "the journal's country: the model has no slot for it",
    **dict.fromkeys((
        "AffiliationInfo", "Identifier", "GrantList", "ChemicalList",
        "SupplMeshList", "CommentsCorrectionsList", "GeneSymbolList", "PersonalNameSubjectList",
        "OtherID", "OtherAbstract", "SpaceFlightMission", "InvestigatorList", "GeneralNote",
        "NumberOfReferences", "CitationSubset", "DataBankList", "ReferenceList", "History",
        "DateCompleted", "DateRevised", "ArticleDate", "ContributionDate", "DateCreated",
        "LocationLabel", "Sections", "ItemList", "ObjectList", "CoiStatement"), _NOT_MODELLED),
}
#: Runs of whitespace (each matched once, whole: time linear in the text); those that hold a
#: line break are a pretty-printed file's layout, one space...
_WHITESPACE = re.compile(r"\s+")
#: ... or none after an opening or before a closing bracket (``(<i>APOE</i>)`` printed over
#: two lines).
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")


def inline_text(element: Any | None) -> Text:
    """The rich text of an element with PubMed's inline markup."""
    if element is None:
        return ""

    def parts(node: Any) -> Iterator[Inline]:
        yield _unlayout(node.text)
        for item in node:
            if local_name(item) == "math":
                yield from mathml.render(item)
                yield _unlayout(item.tail)
                continue
            content = tuple(parts(item))
            style = INLINE_STYLES.get(local_name(item))
            yield from styled_inlines(style, content) if style else content
            yield _unlayout(item.tail)

    return strip(rich(parts(element)))


def _unlayout(text: str | None) -> str:
    """Text of mixed content with its layout whitespace as one space (none inside brackets)."""
    text = text or ""

    def layout(run: re.Match[str]) -> str:
        if "\n" not in run[0]:
            return run[0]
        start, end = run.span()
        inside = (start > 0 and text[start - 1] in _OPENING) or text[end:end + 1] in _CLOSING
        return "" if inside else " "

    return _WHITESPACE.sub(layout, text)


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


def mesh_heading(heading: Any) -> str:
    """A ``MeshHeading`` in MEDLINE's ``MH`` notation: the descriptor, then each qualifier
    after a slash, a major topic marked by an asterisk (``*Kidney Diseases/diagnosis``,
    ``Models, Theoretical/*methods``)."""
    return "/".join(
        ("*" if part.get("MajorTopicYN") == "Y" else "") + text_of(part)
        for part in heading if local_name(part) in ("DescriptorName", "QualifierName"))


def mesh_headings(citation: Any) -> str:
    """The ``MeshHeading``s whose qualifiers or major-topic marks their keyword (the
    descriptor's name, as Zotero reads it) does not hold, one a line in MEDLINE's notation."""
    headings = [h for h in citation.iter() if local_name(h) == "MeshHeading"]
    return "\n".join(mesh_heading(h) for h in headings
                     if mesh_heading(h) != text_of(child(h, "DescriptorName")))


def _abstract(abstract: Any | None) -> Text:
    if abstract is None:
        return ""
    sections: list[Inline] = []
    for number, section in enumerate(children(abstract, "AbstractText")):
        label = section.get("Label")
        sections += ["\n"] if number else []
        sections += [f"{label}: "] if label and label != t.UNLABELLED else []
        sections += inlines(inline_text(section))
    return strip(rich(sections))


def _title(body: Any, extra: dict[str, str]) -> Text:
    """``ArticleTitle``, or ``VernacularTitle`` when it is empty (else kept as an extra),
    without the period MEDLINE ends every title with (as Zotero and JabRef read it)."""
    title = inline_text(child(body, "ArticleTitle"))
    vernacular = inline_text(child(body, "VernacularTitle"))
    if title and vernacular:
        extra["pubmed-xml.VernacularTitle"] = text_of(child(body, "VernacularTitle"))
    return without_final_period(title or vernacular)


def without_final_period(title: Text) -> Text:
    """``title`` without the one period MEDLINE puts at its end (an ellipsis stays)."""
    text = plain(title)
    if not text.endswith(".") or text.endswith(".."):
        return title
    return map_last(title, lambda last: last[:-1])


def _identifier(fields: dict[str, Text], extra: dict[str, str], element: str, kind: str,
                value: str) -> None:
    """An ``ArticleId``/``ELocationID`` of ``kind`` into its CSL variable (the first one
    wins; every identifier a record takes passes here); one of another kind, or another value
    of a kind already read, is kept as ``pubmed-xml.<element>-<kind>``."""
    if not value:
        return
    variable = IDENTIFIERS.get(kind)
    if variable is not None and variable not in fields:
        fields[variable] = value
    elif variable is None or plain(fields[variable]) != value:
        add_extra_line(extra, extra_key("pubmed-xml", f"{element}-{kind or 'untyped'}"), value)


def _identifiers(article: Any, citation: Any, body: Any, book: Any | None,
                 fields: dict[str, Text], extra: dict[str, str]) -> None:
    """The ``ELocationID``s (of the article or the book) and ``ArticleId``s of a record."""
    locations = [*children(body, "ELocationID"),
                 *(children(book, "ELocationID") if book is not None else ())]
    for location in locations:
        kind, value = (location.get("EIdType") or "").lower(), text_of(location)
        if kind in KEPT_LOCATIONS and value:
            if "page" in fields:
                extra.setdefault(f"pubmed-xml.{kind}", value)
            else:
                fields["page"] = value
        else:
            _identifier(fields, extra, "ELocationID", kind, value)
    for owner in (_path(article, "PubmedData", "ArticleIdList"),
                  _path(article, "PubmedBookData", "ArticleIdList"),
                  child(citation, "ArticleIdList")):
        for identifier in children(owner, "ArticleId") if owner is not None else ():
            kind, value = (identifier.get("IdType") or "").lower(), text_of(identifier)
            if not (kind in KEPT_LOCATIONS and value in (plain(fields.get("page", "")),
                                                         extra.get(f"pubmed-xml.{kind}"))):
                _identifier(fields, extra, "ArticleId", kind, value)


def _people(citation: Any, book: Any | None, chapter: bool) -> dict[str, tuple[Name, ...]]:
    """Authors and editors; of a chapter, the book's authors are its container authors."""
    names: dict[str, tuple[Name, ...]] = {}
    lists = [(author_list, False) for author_list in children(
        _either(child(citation, "Article"), citation), "AuthorList")]
    lists += [(author_list, True) for author_list in (
        children(book, "AuthorList") if book is not None else ())]
    for author_list, of_book in lists:
        role = "editor" if author_list.get("Type") == "editors" else (
            "container-author" if of_book and chapter else "author")
        people = _authors(author_list)
        if people and role not in names:
            names[role] = tuple(people)
    return names


def _kept(article: Any) -> dict[str, str]:
    """The ``KEPT`` elements of a record as ``pubmed-xml.*`` extras (the first of each; a
    journal's vernacular title as ``pubmed-xml.MedlineJournalInfo/VernacularTitle``), its
    publication types as ``pubmed-xml.PublicationType`` and a second PMID as
    ``pubmed-xml.PMID``."""
    extra: dict[str, str] = {}
    for element in article.iter():
        name, text, holder = local_name(element), text_of(element), element.getparent()
        parent = local_name(holder) if holder is not None else ""
        if not text or name == "VernacularTitle" and parent == "Article":
            continue
        if name in KEPT:
            key = f"pubmed-xml.{parent}/{name}" if name == "VernacularTitle" else (
                f"pubmed-xml.{name}")
            extra.setdefault(key, text)
        elif name == "PublicationType":
            add_extra_line(extra, "pubmed-xml.PublicationType", text)
        elif name == "PMID" and parent in ("MedlineCitation", "BookDocument") and (
                element is not child(holder, "PMID")):
            add_extra_line(extra, "pubmed-xml.PMID", text)
    return extra


def record_of(article: Any, source: str, number: int, diagnostics: Diagnostics) -> Record:
    """The record of a ``PubmedArticle`` or ``PubmedBookArticle``."""
    citation = _either(child(article, "MedlineCitation"), child(article, "BookDocument"))
    if citation is None:
        raise ValueError("neither MedlineCitation nor BookDocument")
    body = _either(child(citation, "Article"), citation)
    journal, book = child(body, "Journal"), child(citation, "Book")
    chapter = book is not None and child(body, "ArticleTitle") is not None
    fields: dict[str, Text] = {}
    extra = _kept(article)
    dated: dict[str, list[str]] = {}
    values = {
        "PMID": text_of(child(citation, "PMID")),
        "title": _title(body, extra) or inline_text(
            child(book, "BookTitle") if book is not None else None),
        "container-title": text_of(child(journal, "Title")) if journal is not None
        else inline_text(child(book, "BookTitle")) if chapter else "",
        "container-title-short": text_of(child(journal, "ISOAbbreviation"))
        if journal is not None else "",
        "ISSN": text_of(child(journal, "ISSN")) if journal is not None else "",
        "volume": text_of(_path(journal, "JournalIssue", "Volume"))
        or text_of(_path(book, "Volume")),
        "issue": text_of(_path(journal, "JournalIssue", "Issue")),
        "page": medline_pages(text_of(_path(body, "Pagination", "MedlinePgn"))) or "-".join(
            p for p in (text_of(_path(body, "Pagination", "StartPage")),
                        text_of(_path(body, "Pagination", "EndPage"))) if p),
        "abstract": _abstract(child(body, "Abstract")),
        "language": text_of(child(body, "Language")),
        "publisher": text_of(_path(book, "Publisher", "PublisherName")),
        "publisher-place": text_of(_path(book, "Publisher", "PublisherLocation")),
        "ISBN": text_of(child(book, "Isbn")) if book is not None else "",
        "edition": text_of(_path(book, "Edition")),
        "collection-title": inline_text(_path(book, "CollectionTitle")),
    }
    fields.update({k: v for k, v in values.items() if v})
    _identifiers(article, citation, body, book, fields, extra)
    if "call-number" in fields and "PMID" in fields:
        # Zotero's reading: a book with a PMID is on the NCBI Bookshelf under its accession.
        fields.setdefault("URL", f"https://www.ncbi.nlm.nih.gov/books/{fields['call-number']}/")
    types = [text_of(p) for p in children(_either(child(body, "PublicationTypeList"), body),
                                          "PublicationType")]
    record_type = next((t.PUBLICATION_TYPES[p] for p in t.PUBLICATION_TYPES if p in types),
                       "article-journal" if journal is not None else "book")
    if local_name(article) == "PubmedBookArticle":
        record_type = "chapter" if chapter else "book"
    keywords = [text_of(k) for k in citation.iter() if local_name(k) in ("Keyword",
                                                                          "DescriptorName")]
    issued = _pub_date(_path(journal, "JournalIssue", "PubDate") if journal is not None
                       else _path(book, "PubDate"), dated)
    extra.update({k.replace("nbib.", "pubmed-xml."): "\n".join(v) for k, v in dated.items()})
    if headings := mesh_headings(citation):
        extra["pubmed-xml.MeshHeading"] = headings
    clean_doi_field(fields)
    return Record(
        id=f"pmid{fields['PMID']}" if "PMID" in fields else f"pubmed{number}",
        type=record_type, fields=fields, names=_people(citation, book, chapter),
        dates={"issued": issued} if issued is not None else {},
        keywords=tuple(dict.fromkeys(k for k in keywords if k)), extra=extra,
        source=Source(source, article.sourceline or 1))


class PubmedXmlReader(catalogue.CatalogueReader):
    name = "pubmed-xml"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        root = parse_xml(stream.read(), source, "PubMed XML", diagnostics)
        if local_name(root) not in (*SETS, *ARTICLES):
            raise ParseError("not PubMed XML: the root element is not PubmedArticleSet",
                             source, root.sourceline)
        articles = [root] if local_name(root) in ARTICLES else [
            e for e in root if local_name(e) in ARTICLES]
        reported: set[str] = set()
        for number, article in enumerate(articles, start=1):
            try:
                yield record_of(article, source, number, diagnostics)
            except ValueError as exc:
                diagnostics.error(f"article skipped: {exc}", source, article.sourceline or 1)
                continue
            report_unread(article, ELEMENTS, "PubMed XML", source, diagnostics, reported)


READER = PubmedXmlReader()
