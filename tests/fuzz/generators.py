"""Hypothesis strategies for near-valid input: text that is almost a valid file of each format
(the right syntax with random, hostile or wrongly-typed values). Valid model records come from
tests/strategies.py.

Each text generator returns the input and the number of records it holds, so tests can check
that every record is either read or reported as skipped, never silently lost.
"""

from __future__ import annotations

import json
from typing import Any

from fuzz.hostile import HOSTILE_TEXTS
from hypothesis import strategies as st

from refbridge.formats.profile import SOURCE_YEAR
from refbridge.vocab import ITEM_TYPES

#: any character a text file can hold (no NUL, no lone surrogate)
_CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")

texts = (st.sampled_from(HOSTILE_TEXTS) | st.text(_CHARACTERS, min_size=1, max_size=30)
         | st.from_regex(r"[A-Z][a-z]{2,9}( [a-z]{2,9}){0,5}", fullmatch=True)
         ).filter(lambda text: bool(text.strip()))

# -- CSL-JSON -------------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8)

_CSL_KEYS = ("id", "type", "title", "author", "editor", "issued", "accessed", "custom",
             "categories", "number", "publisher", "keyword", "citation-key", "DOI", "page",
             "x-unknown")
_PLAUSIBLE: dict[str, Any] = {
    "author": st.lists(st.fixed_dictionaries({}, optional={
        "family": json_values | texts, "given": json_values | texts,
        "literal": json_values | texts, "non-dropping-particle": texts})),
    "issued": st.fixed_dictionaries({}, optional={
        "date-parts": st.lists(st.lists(st.integers() | st.text(max_size=4) | json_values,
                                        max_size=4), max_size=3),
        "season": json_values, "circa": json_values, "literal": json_values,
        "raw": json_values}) | st.text(max_size=12),
    "custom": st.fixed_dictionaries({}, optional={
        "eprint": st.fixed_dictionaries({}, optional={
            "archive": json_values, "id": json_values, "primary-class": json_values,
            "cross-lists": json_values}),
        "extra": json_values, "keywords": json_values, "incomplete-names": json_values,
        "derived": json_values}),
    "type": st.sampled_from(sorted(ITEM_TYPES)) | json_values,
    "id": texts | json_values,
}


@st.composite
def csl_json_documents(draw: st.DrawFn) -> tuple[bytes, int]:
    """A CSL-JSON array of items whose keys are right and whose values may be of any shape."""
    items = []
    for _ in range(draw(st.integers(0, 4))):
        item: dict[str, Any] = {"id": draw(texts), "type": "book"}
        for key in draw(st.lists(st.sampled_from(_CSL_KEYS), max_size=6)):
            item[key] = draw(_PLAUSIBLE.get(key, texts | json_values))
        items.append(item)
    return json.dumps(items, indent=1).encode(), len(items)


# -- BibTeX ---------------------------------------------------------------------------------
_BIB_TYPES = ("article", "book", "inproceedings", "misc", "online", "thesis", "ARTICLE",
              "phdthesis", "unknowntype", "string", "comment", "preamble")
_BIB_FIELDS = ("author", "editor", "title", "journal", "booktitle", "year", "date", "month",
               "pages", "doi", "url", "eprint", "archiveprefix", "primaryclass", "keywords",
               "crossref", "note", "isbn", "unknownfield", "urldate", "edition")
_BIB_VALUE_TEXT = st.text(st.characters(blacklist_categories=("Cs",),
                                        blacklist_characters="\x00@"), max_size=25)
_bib_values = st.one_of(
    _BIB_VALUE_TEXT.map(lambda v: "{" + v + "}"),
    _BIB_VALUE_TEXT.map(lambda v: '"' + v + '"'),
    st.from_regex(r"[0-9]{1,6}|jan|feb|dec|undefinedmacro", fullmatch=True),
    st.sampled_from(HOSTILE_TEXTS).map(lambda v: "{" + v.replace("@", "(at)") + "}"),
    st.sampled_from(("{Doe, Jane and Roe, Richard}", "{{World Health Organization}}",
                     "{M{\\\"u}ller, J{\\\"o}rg and others}", "{2020-03/2021}", "{12--}",
                     '{\\"{o}}', "{\\url{x}}", "{{{{{{x}}}}}}", "{ and and }", "{, , }",
                     '"a" # "b"', "jan # {~15}", "{2021-13-45}", "{-5}", "{10.1/x}")))


@st.composite
def bibtex_documents(draw: st.DrawFn) -> tuple[bytes, int]:
    """A .bib text of entries with right syntax and random, hostile or malformed values."""
    blocks = []
    count = 0
    for index in range(draw(st.integers(0, 4))):
        entry_type = draw(st.sampled_from(_BIB_TYPES))
        fields = draw(st.lists(st.tuples(st.sampled_from(_BIB_FIELDS), _bib_values),
                               max_size=6))
        body = ",\n".join(f"  {name} = {value}" for name, value in fields)
        if entry_type in ("string", "comment", "preamble"):
            value = draw(st.sampled_from(('{Proceedings of the {VLDB} Endowment}', '"x"',
                                          '"a" # {b}', "{}", "{\\\"{o}}")))
            blocks.append({"string": f"@string{{macro{index} = {value}}}",
                           "comment": f"@comment{{{body.replace('@', '')}}}",
                           "preamble": f"@preamble{{{value}}}"}[entry_type])
            continue
        count += 1
        blocks.append(f"@{entry_type}{{key{index},\n{body}\n}}")
    return "\n\n".join(blocks).encode(), count


# -- RIS ------------------------------------------------------------------------------------
_RIS_TAGS = ("TY", "AU", "A1", "A2", "A3", "TI", "T1", "T2", "JO", "JF", "PY", "Y1", "DA",
             "SP", "EP", "VL", "IS", "DO", "UR", "KW", "N1", "AB", "SN", "PB", "CY", "ID",
             "ZZ", "L1", "M3", "ET", "C1")
_RIS_TYPES = ("JOUR", "BOOK", "CHAP", "CONF", "GEN", "UNPB", "EJOUR", "THES", "XXXX", "")
_ris_values = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r\n"),
            max_size=25),
    st.sampled_from(("2020", "2020/06/01/", "2020///Spring", "/06/", "99999", "-50",
                     "2020/13/45/", "Doe, Jane, Jr.", "van der Berg, Jan", ",,,", "arXiv:",
                     "refbridge: {", "refbridge: {\"x\": 1}", "refbridge: []", "12-", "x--y")),
    st.sampled_from(HOSTILE_TEXTS).map(lambda v: v.replace("\n", " ")))


@st.composite
def ris_documents(draw: st.DrawFn) -> tuple[bytes, int]:
    """An RIS text of records with right syntax and random, hostile or malformed values."""
    lines: list[str] = []
    count = draw(st.integers(0, 4))
    for _ in range(count):
        lines.append(f"TY  - {draw(st.sampled_from(_RIS_TYPES))}")
        for tag, value in draw(st.lists(st.tuples(st.sampled_from(_RIS_TAGS[1:]), _ris_values),
                                        max_size=8)):
            lines.append(f"{tag}  - {value}")
        lines.append("ER  - ")
        lines.append("")
    return "\n".join(lines).encode(), count


# -- profile pages --------------------------------------------------------------------------
_PROFILE_LINES = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"),
                                       blacklist_characters="↗\x85"),
                         min_size=1, max_size=40).filter(
    lambda line: bool(line.strip()) and SOURCE_YEAR.match(line.strip()) is None)


@st.composite
def profile_pages(draw: st.DrawFn) -> tuple[bytes, int]:
    """A profile page with records whose title and abstract lines are random or hostile."""
    owner = draw(st.sampled_from(("Zhengping Qian", "Jörg Müller", "A", "van der Berg, Jan")))
    count = draw(st.integers(0, 4))
    lines = ["arXiv subjects", "", owner, "",
             f"Publications and source records attributed to {owner}.", ""]
    if draw(st.booleans()):
        lines += [f"{draw(st.integers(0, 9))} recordsLinked to original sources", ""]
    for _ in range(count):
        source = draw(st.sampled_from(("arXiv", "DBLP", "Crossref")))
        lines += [f"{source}{draw(st.integers(1500, 2199))}", "",
                  draw(_PROFILE_LINES | st.sampled_from(HOSTILE_TEXTS).map(
                      lambda v: v.replace("\n", " "))), ""]
        lines += [draw(_PROFILE_LINES) for _ in range(draw(st.integers(0, 2)))]
        if draw(st.booleans()):
            lines += ["", draw(st.sampled_from(("cs.DB↗", "cs.DB↗ cs.LG↗", "nonsense↗",
                                                "math.CO↗")))]
        lines.append("")
    return "\n".join(lines).encode(), count


# -- Zotero RDF -----------------------------------------------------------------------------
_ZOTERO_HEAD = ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                'xmlns:z="http://www.zotero.org/namespaces/export#" '
                'xmlns:dc="http://purl.org/dc/elements/1.1/" '
                'xmlns:foaf="http://xmlns.com/foaf/0.1/" xmlns:bib="http://purl.org/net/biblio#" '
                'xmlns:dcterms="http://purl.org/dc/terms/" '
                'xmlns:prism="http://prismstandard.org/namespaces/1.2/basic/">\n')
_ZOTERO_TYPES = ("journalArticle", "book", "bookSection", "preprint", "thesis", "webpage",
                 "conferencePaper", "report", "unknownType", "")
_xml_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=25).map(
    lambda text: text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
_zotero_values = _xml_text | st.sampled_from(
    ("2020", "2020-06", "2020-13-45", "99999", "", "  ", "arXiv:2601.01234", "DOI 10.1/x",
     "ISSN 0163-5808", "12-", "&lt;script&gt;", "]]&gt;"))
_ZOTERO_FIELDS = ("dc:title", "dc:date", "dcterms:abstract", "bib:pages", "dc:identifier",
                  "prism:volume", "prism:number", "dc:subject", "dc:description",
                  "z:language", "z:shortTitle", "dc:rights")


@st.composite
def zotero_documents(draw: st.DrawFn) -> tuple[bytes, int]:
    """Zotero RDF with items of random types and random (escaped) field values and creators."""
    parts = [_ZOTERO_HEAD]
    count = draw(st.integers(0, 4))
    for index in range(count):
        parts.append(f'<rdf:Description rdf:about="#item_{index}">\n'
                     f"<z:itemType>{draw(st.sampled_from(_ZOTERO_TYPES))}</z:itemType>\n")
        for element, value in draw(st.lists(st.tuples(st.sampled_from(_ZOTERO_FIELDS),
                                                      _zotero_values), max_size=6)):
            parts.append(f"<{element}>{value}</{element}>\n")
        people = draw(st.lists(st.tuples(_xml_text, _xml_text), max_size=3))
        if people:
            parts.append("<bib:authors><rdf:Seq>" + "".join(
                f"<rdf:li><foaf:Person><foaf:surname>{family}</foaf:surname>"
                f"<foaf:givenName>{given}</foaf:givenName></foaf:Person></rdf:li>"
                for family, given in people) + "</rdf:Seq></bib:authors>\n")
        parts.append("</rdf:Description>\n")
    parts.append("</rdf:RDF>\n")
    return "".join(parts).encode(), count
