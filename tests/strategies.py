"""Hypothesis strategies for realistic citation records, for property tests of every format.

``records()`` draws records the way CSL-JSON would give them to refbridge: every CSL item type,
personal names with particles and suffixes in several scripts, corporate names, dates with
missing parts, ranges, seasons, circa and literal dates, identifiers in their real shapes,
keywords, arXiv eprints, incomplete author lists and other formats' extra fields. Text mixes
real-looking phrases with characters that are markup somewhere (LaTeX, XML/HTML, RIS tag
lines, JSON, BibTeX braces), so a writer that lets record text become markup is found out.

``plain_records()`` draws the same records without hostile text and with names every format's
own syntax can spell, for tests of what a format carries natively.

Records are passed through CSL-JSON once (``formats.csljson``), so they are exactly what reading
a CSL-JSON file gives. Strategies only: no assertions here. Each strategy is built once (cached
by its arguments) and drawn from many times: building and validating a strategy inside a draw
cost more than the draw itself.
"""

from __future__ import annotations

import string
from functools import cache

from hypothesis import strategies as st

from refbridge.arxiv_taxonomy import categories
from refbridge.formats.csljson import from_csl, to_csl
from refbridge.model import Date, DateParts, Eprint, Name, Record
from refbridge.richtext import (
    Inline,
    Link,
    Math,
    Raw,
    Style,
    Styled,
    Text,
    Url,
    normalized,
    plain,
    rich,
    strip,
)
from refbridge.vocab import DATE_VARIABLES, ITEM_TYPES, NAME_VARIABLES, TEXT_VARIABLES

# -- words -----------------------------------------------------------------------------------
GIVEN_NAMES = (
    "Zhengping", "Qinwei", "Marie", "José María", "Jean-Luc", "Anne-Sophie", "Øystein",
    "Łukasz", "Søren", "Ngũgĩ", "Chidinma", "Björk", "Siobhán", "İlker", "Đặng", "J. R. R.",
    "Mary Ann", "Ana", "Ludwig", "Vincent", "Martin Luther", "Guðrún", "Nguyễn Thị",
    "Александр", "Οδυσσέας", "محمد", "太郎", "서연", "Ίρις", "Владимир", "Hans-Georg",
)
FAMILY_NAMES = (
    "Qian", "Yang", "Curie", "García Márquez", "Picard", "Müller", "Ødegård", "Wałęsa",
    "Kierkegaard", "wa Thiong'o", "O'Brien", "MacDonald", "Smith-Jones", "Østergaard",
    "Nakamura", "Çelik", "Nguyễn", "Pushkin", "Καζαντζάκης", "الخوارزمي", "山田", "김",
    "Beethoven", "Gogh", "Tolkien", "Žižek", "Ramanujan", "Łoś", "Grünwald",
)
PARTICLES = ("van", "von", "de", "de la", "van der", "di", "da", "du", "von und zu", "al")
DROPPING_PARTICLES = ("van", "de", "von")
SUFFIXES = ("Jr.", "Sr.", "II", "III", "IV")
CORPORATE_NAMES = (
    "World Health Organization", "W3C", "UNESCO", "IEEE Computer Society",
    "Übersetzungsbüro Müller & Söhne", "中国科学院", "Организация Объединённых Наций",
    "ATLAS Collaboration", "R Core Team", "Bundesamt für Statistik", "The Open Group",
)
PHRASE_WORDS = (
    "database", "learning", "graph", "neural", "query", "optimisation", "Bayesian", "LLM",
    "résumé", "naïve", "Gödel", "Schrödinger", "Ångström", "coöperation", "façade",
    "数据库", "学习", "обучение", "модели", "αλγόριθμος", "تعلم", "データ", "학습",
    "SpecDB", "TPC-C", "GPU", "x86-64", "O(n log n)", "p < 0.05", "95%", "α-helix",
    "and", "of", "the", "for", "with", "in", "a", "on", "to",
)
#: Text that is markup or syntax in some format: it must come out as text everywhere.
HOSTILE = (
    "{", "}", "\\", "%", "$", "&", "#", "_", "^", "~", "<", ">", '"', "'", "@", "|",
    "\\textbf{bold}", "{\\\"o}", "$x^2$", "<i>it</i>", "<script>alert(1)</script>", "&amp;",
    "]]>", "<!--", "\\\\", "@article{x,", "},", "\nER  - ", "\nTY  - JOUR", "\nAU  - X, Y",
    "\n", "\n\n", "\t", "a  - b", ",", ";", ", Jr.", "refbridge: {}", "arXiv:1234.5678", "\u200b", "\u00ad",
    "e\u0301", "\U0001f600", "\u202eRTL", "ﬁ", "“quoted”", "—", "–", "…",
)

SCRIPT_TEXT = st.text(
    alphabet=st.characters(
        codec="utf-8",
        exclude_categories=("Cc", "Cs", "Co", "Cn", "Zl", "Zp"),
    ),
    min_size=1, max_size=12,
).filter(str.strip)


def _join(parts: list[str]) -> str:
    return " ".join(parts).strip()


WORD = st.sampled_from(PHRASE_WORDS)
#: the pieces of a phrase, by whether it mixes in hostile text
PIECES = {False: WORD, True: st.one_of(WORD, WORD, WORD, st.sampled_from(HOSTILE), SCRIPT_TEXT)}


@cache
def _pieces(hostile: bool, max_words: int) -> st.SearchStrategy[list[str]]:
    return st.lists(PIECES[hostile], min_size=1, max_size=max_words)


@st.composite
def _phrase(draw: st.DrawFn, hostile: bool, max_words: int) -> str:
    text = _join(draw(_pieces(hostile, max_words)))
    return text or draw(WORD)


@cache
def phrase(hostile: bool = True, max_words: int = 8) -> st.SearchStrategy[str]:
    """A short text: realistic words, with hostile characters and arbitrary Unicode mixed in."""
    return _phrase(hostile, max_words)


def _strip(text: str) -> str:
    """Text as a careful source gives it: no surrounding white space."""
    return text.strip()


@cache
def text_value(hostile: bool = True, max_words: int = 8) -> st.SearchStrategy[str]:
    return phrase(hostile, max_words).map(_strip).filter(bool)


# -- rich text ---------------------------------------------------------------------------------
#: Formulas as titles and abstracts hold them.
FORMULAS = ("O(n^2)", r"\sum_{i=1}^n x_i^2 \geq 0", r"\alpha", "x_{ij}", "10^{-3}",
            r"\mathcal{O}(n \log n)", r"\sqrt{n}", r"(k, \tau)", r"\mathbb{R}^d", "k")
#: LaTeX the model keeps as written.
RAW_LATEX = (r"\cite{knuth84}", r"\noopsort{1999}", r"\ref{sec:intro}", r"\flash{}")
STYLES = (Style.ITALIC, Style.BOLD, Style.SMALL_CAPS, Style.SUPERSCRIPT, Style.SUBSCRIPT,
          Style.MONOSPACE, Style.NOCASE)


STYLE = st.sampled_from(STYLES)
FORMULA = st.sampled_from(FORMULAS)
RAW = st.sampled_from(RAW_LATEX)
INLINE_KINDS = st.sampled_from(("text", "text", "text", "styled", "styled", "math", "url",
                                "link", "raw"))


@st.composite
def _inline(draw: st.DrawFn, hostile: bool, depth: int) -> Inline:
    kind = draw(INLINE_KINDS)
    if kind == "text" or depth > 2:
        return " " + draw(phrase(hostile, 3)) + " "
    if kind == "styled":
        content = draw(_inlines(hostile, depth + 1, 3))
        return Styled(draw(STYLE), normalized(content) or ("x",))
    if kind == "math":
        return Math(draw(FORMULA))
    if kind == "url":
        return Url(draw(URL))
    if kind == "link":
        return Link(draw(URL), (draw(phrase(False, 2)),))
    return Raw(draw(RAW))


@cache
def inline(hostile: bool, depth: int = 0) -> st.SearchStrategy[Inline]:
    return _inline(hostile, depth)


@cache
def _inlines(hostile: bool, depth: int, max_size: int) -> st.SearchStrategy[list[Inline]]:
    return st.lists(inline(hostile, depth), min_size=1, max_size=max_size)


@st.composite
def _rich_value(draw: st.DrawFn, hostile: bool) -> Text:
    value = strip(rich(draw(_inlines(hostile, 0, 5))))
    return value if plain(value).strip() else draw(text_value(hostile))


@cache
def rich_value(hostile: bool = True) -> st.SearchStrategy[Text]:
    """Rich text as the model holds it: words with styles, formulas, addresses and raw
    LaTeX, nested a little."""
    return _rich_value(hostile)


# -- identifiers and numbers -------------------------------------------------------------------
DIGITS = string.digits
DOI = st.builds(lambda a, b: f"10.{a}/{b}", st.integers(1000, 99999),
                st.text(string.ascii_letters + DIGITS + ".-_;()/:", min_size=1, max_size=20)
                .filter(lambda s: s.strip() == s))
URL = st.builds(lambda host, path: f"https://{host}/{path}",
                st.sampled_from(("arxiv.org", "doi.org", "example.org", "dl.acm.org",
                                 "zh.wikipedia.org")),
                st.text(string.ascii_letters + DIGITS + "/-_.~%?=&;,+", max_size=30))
ISBN = st.sampled_from(("978-3-16-148410-0", "0-306-40615-2", "9780262033848",
                        "978-7-111-40701-0"))
ISSN = st.sampled_from(("0028-0836", "1476-4687", "2041-1723", "0362-4331", "1234-567X"))
NUMBER = st.one_of(st.integers(1, 2000).map(str),
                   st.sampled_from(("12a", "S1", "3–4", "XIV", "Suppl. 2", "TR-2024-017")))
PAGE = st.one_of(
    st.builds(lambda a, n: f"{a}-{a + n}", st.integers(1, 3000), st.integers(0, 60)),
    st.integers(1, 999).map(str),
    st.sampled_from(("e1001234", "xiv-xx", "D1", "1203–1212", "12, 15-17", "S12-S19")),
)
LANGUAGE = st.sampled_from(("en", "en-US", "de-DE", "zh-CN", "fr", "ja", "ru", "ar"))

#: Value strategies for variables whose values have a shape; other variables get text.
SHAPED = {
    "DOI": DOI, "URL": URL, "ISBN": ISBN, "ISSN": ISSN, "page": PAGE, "page-first": NUMBER,
    "volume": NUMBER, "issue": NUMBER, "number": NUMBER, "edition": NUMBER,
    "chapter-number": NUMBER, "collection-number": NUMBER, "number-of-pages": NUMBER,
    "number-of-volumes": NUMBER, "part": NUMBER, "printing": NUMBER, "supplement": NUMBER,
    "language": LANGUAGE, "PMID": st.integers(1, 40_000_000).map(str),
    "PMCID": st.integers(1, 9_999_999).map(lambda n: f"PMC{n}"),
    "version": st.sampled_from(("1.0", "2.3.1", "v0.9-beta", "20")),
    "call-number": st.sampled_from(("QA76.9.D3 S5 2019", "Z699 .A1", "004.65 COD",
                                    "TK5105.888")),
}
#: Variables whose values are long prose.
PROSE = frozenset({"abstract", "note", "annote", "references"})


@cache
def field_value(variable: str, hostile: bool) -> st.SearchStrategy[str]:
    if variable in SHAPED:
        return SHAPED[variable]
    return text_value(hostile, 40 if variable in PROSE else 8)


# -- names -------------------------------------------------------------------------------------
#: family names, by whether arbitrary Unicode is mixed in
FAMILIES = {False: st.sampled_from(FAMILY_NAMES),
            True: st.one_of(st.sampled_from(FAMILY_NAMES),
                            SCRIPT_TEXT.map(str.strip).filter(lambda s: "," not in s))}
GIVEN = st.sampled_from(GIVEN_NAMES)
MAYBE_GIVEN = st.none() | GIVEN
NAME_SHAPES = st.sampled_from(("plain", "plain", "plain", "particle", "suffix", "dropping",
                               "family-only"))


@st.composite
def _personal_name(draw: st.DrawFn, hostile: bool) -> Name:
    family = draw(FAMILIES[hostile])
    given = draw(MAYBE_GIVEN)
    shape = draw(NAME_SHAPES)
    if shape == "family-only":
        return Name(family=family)
    given = given or draw(GIVEN)
    return Name(
        family=family,
        given=given,
        non_dropping_particle=draw(st.sampled_from(PARTICLES)) if shape == "particle" else None,
        dropping_particle=draw(st.sampled_from(DROPPING_PARTICLES))
        if shape == "dropping" else None,
        suffix=draw(st.sampled_from(SUFFIXES)) if shape == "suffix" else None,
    )


@cache
def personal_name(hostile: bool = True) -> st.SearchStrategy[Name]:
    return _personal_name(hostile)


@cache
def name(hostile: bool = True) -> st.SearchStrategy[Name]:
    corporate = st.sampled_from(CORPORATE_NAMES).map(lambda text: Name(literal=text))
    return st.one_of(personal_name(hostile), personal_name(hostile), corporate)


# -- dates -------------------------------------------------------------------------------------
YEAR = st.one_of(st.integers(1900, 2030), st.integers(1450, 1899), st.integers(-500, -1))
MONTH = st.integers(1, 12)
DAY = st.integers(1, 28)
MAYBE_MONTH = st.none() | MONTH
MAYBE_DAY = st.none() | DAY
DATE_SHAPES = st.sampled_from(("point", "point", "point", "range", "season", "circa",
                               "literal"))
LITERAL_DATES = st.sampled_from(("n.d.", "ca. 1850", "Spring 1999", "forthcoming",
                                 "18th century"))
YEARS_LATER = st.integers(0, 3)
SEASON = st.integers(1, 4)


@st.composite
def _date_parts(draw: st.DrawFn) -> DateParts:
    year = draw(YEAR)
    month = draw(MAYBE_MONTH)
    day = draw(MAYBE_DAY) if month else None
    return DateParts(year, month, day)


DATE_PARTS = _date_parts()


@st.composite
def _date(draw: st.DrawFn) -> Date:
    shape = draw(DATE_SHAPES)
    if shape == "literal":
        return Date(literal=draw(LITERAL_DATES))
    start = draw(DATE_PARTS)
    if shape == "range":
        years_later = draw(YEARS_LATER) if start.year > 0 else 0  # no year 0
        end = DateParts(start.year + years_later,
                        start.month and draw(MONTH),
                        start.day and draw(DAY))
        return Date(start=start, end=end)
    if shape == "season":
        return Date(start=DateParts(start.year), season=draw(SEASON))
    return Date(start=start, circa=shape == "circa")


DATE = _date()


# -- records -----------------------------------------------------------------------------------
ARXIV_CLASSES = sorted(categories())
EXTRA_FIELDS = st.dictionaries(
    st.sampled_from(("bibtex.mrnumber", "bibtex.timestamp", "biblatex.pubstate",
                     "ris.L1", "ris.U2", "zotero.libraryCatalog")),
    text_value(hostile=False, max_words=3), max_size=2)


ARXIV_IDENTIFIER = st.none() | st.builds(
    lambda y, m, n, v: f"{y:02d}{m:02d}.{n:05d}" + (f"v{v}" if v else ""),
    st.integers(7, 26), st.integers(1, 12), st.integers(1, 99999), st.integers(0, 4))
ARXIV_CLASS_LISTS = st.lists(st.sampled_from(ARXIV_CLASSES), max_size=3, unique=True)


@st.composite
def _eprint(draw: st.DrawFn) -> Eprint:
    identifier = draw(ARXIV_IDENTIFIER)
    classes = draw(ARXIV_CLASS_LISTS)
    return Eprint("arXiv", identifier, classes[0] if classes else None, tuple(classes[1:]))


EPRINT = _eprint()


def _key(number: int) -> str:
    return f"key{number}"


ITEM_TYPE = st.sampled_from(sorted(ITEM_TYPES))
VARIABLE_LISTS = st.lists(st.sampled_from(TEXT_VARIABLES), max_size=10, unique=True)
ZERO_OR_ONE = st.integers(0, 1)
ROLE_LISTS = st.lists(st.sampled_from(NAME_VARIABLES), max_size=2, unique=True)
DATE_VARIABLE_LISTS = st.lists(st.sampled_from(DATE_VARIABLES), max_size=1)
KEY_NUMBER = st.integers(1, 10_000)


@cache
def _title(hostile: bool) -> st.SearchStrategy[Text]:
    return st.one_of(text_value(hostile), rich_value(hostile))


@cache
def _name_lists(hostile: bool) -> st.SearchStrategy[list[Name]]:
    return st.lists(name(hostile), min_size=1, max_size=4)


@cache
def _keyword_lists(hostile: bool) -> st.SearchStrategy[list[str]]:
    return st.lists(text_value(hostile, 3), max_size=4, unique=True)


@st.composite
def _record(draw: st.DrawFn, hostile: bool) -> Record:
    item_type = draw(ITEM_TYPE)
    variables = draw(VARIABLE_LISTS)
    fields = {"title": draw(_title(hostile))}
    fields |= {v: draw(field_value(v, hostile)) for v in variables}
    roles = ["author"] * draw(ZERO_OR_ONE) + draw(ROLE_LISTS)
    names = {role: tuple(draw(_name_lists(hostile))) for role in dict.fromkeys(roles)}
    date_variables = ["issued"] * draw(ZERO_OR_ONE) + draw(DATE_VARIABLE_LISTS)
    dates = {v: draw(DATE) for v in dict.fromkeys(date_variables)}
    keywords = draw(_keyword_lists(hostile))
    with_eprint = item_type == "article" and draw(st.booleans())
    incomplete = draw(st.lists(st.sampled_from(sorted(names)), max_size=1)) if names else []
    record = Record(
        id=_key(draw(KEY_NUMBER)),
        type=item_type,
        fields=fields,
        names=names,
        dates=dates,
        keywords=tuple(keywords),
        eprint=draw(EPRINT) if with_eprint else None,
        incomplete_names=frozenset(incomplete),
        extra=draw(EXTRA_FIELDS),
    )
    return from_csl(to_csl(record))


@cache
def records(hostile: bool = True) -> st.SearchStrategy[Record]:
    """One record as read from CSL-JSON, of any CSL item type."""
    return _record(hostile)


def plain_records() -> st.SearchStrategy[Record]:
    """Records without hostile text, with names every format can spell."""
    return records(hostile=False)
