"""Benchmark inputs: .bib files and CSL-JSON item lists of a chosen size, built on the spot.

The .bib is a real library from TeX Live (found with ``kpsewhich``): ``biblatex-examples.bib``
(biblatex's 92 examples of every entry type), or ``tugboat.bib`` (TUGboat's own bibliography,
3,600 entries kept by hand over decades: macros, accents, protected names, TeX logos),
replicated with unique keys: every copy's keys get a ``-N`` suffix, and so do the keys its entries point at
(``crossref``, ``xref``, ``entryset``, ``related``), so each copy stays self-contained; the
``@string`` definitions are written once. Citation.js rejects a starred macro
(``\\enquote*{series}`` in five annotations), so the star is dropped, for every contender
alike. Without TeX Live, a generated .bib of the same flavour
(accented names in LaTeX, particles, protected capitals, math, dashes, macros, long plain
abstracts) is used instead; it is the same for the same size. The CSL-JSON items for the APA job
come from ``csl_apa.sample_items``, with every name of the k-th copy of an item given a surname
of its own (``Smith Kovaro``): plain copies would make one author-year group of N/40 items each,
and a bibliography that big with that many identical works measures disambiguation, not
formatting. This module must never run or time anything.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csl_apa import sample_items

BIBLATEX_EXAMPLES = "biblatex-examples.bib"
TUGBOAT = "tugboat.bib"
#: The real libraries a benchmark can replicate, by the name ``--bib`` takes.
REAL_LIBRARIES: dict[str, str] = {"examples": BIBLATEX_EXAMPLES, "tugboat": TUGBOAT}

#: Fields whose value is one entry key or a comma-separated list of entry keys.
KEY_REFERENCE_FIELDS: tuple[str, ...] = ("crossref", "xref", "entryset", "related")

_BLOCK_START = re.compile(r"^@", re.MULTILINE)
_ENTRY_HEAD = re.compile(r"@(\w+)\s*\{\s*([^,\s]+)\s*,")
_KEY_REFERENCE = re.compile(
    r"^(\s*(?:" + "|".join(KEY_REFERENCE_FIELDS) + r")\s*=\s*[{\"])([^}\"]*)",
    re.MULTILINE | re.IGNORECASE)
_DEFINITIONS = ("string", "preamble", "comment")

#: Text a peer cannot parse at all, and what every contender gets instead: Citation.js rejects
#: a starred macro and a control space written as a backslash at the end of a line
#: (tugboat.bib's ``pp.\`` before a line break), which ``\ `` says alike.
PEER_INCOMPATIBLE: tuple[tuple[str, str], ...] = (("\\enquote*{", "\\enquote{"),
                                                  ("\\\n", "\\ \n"))
#: The real libraries of the real-library jobs, each converted as it is: TeX Live's largest
#: hand-kept ones (Nelson Beebe's bibliographies of TeX, fonts, typesetting and printing, with
#: macros and crossrefs) and biblatex's examples.
REAL_LIBRARY_FILES: tuple[str, ...] = (TUGBOAT, "typeset.bib", "font.bib",
                                       "printing-history.bib", "texbook2.bib",
                                       BIBLATEX_EXAMPLES)


@dataclass(frozen=True, slots=True)
class BibSource:
    """A .bib to replicate: its definitions (``@string`` ...) and its entries, as text blocks."""

    name: str
    definitions: tuple[str, ...]
    entries: tuple[str, ...]


def find_in_tex_live(name: str) -> Path | None:
    """The file ``name`` of TeX Live, or None without TeX Live (or without that file)."""
    if shutil.which("kpsewhich") is None:
        return None
    found = subprocess.run(["kpsewhich", name], capture_output=True, text=True,
                           check=False).stdout.strip()
    return Path(found) if found else None


def split_bib(name: str, text: str) -> BibSource:
    """The blocks of a .bib (each starts with an ``@`` at the beginning of a line)."""
    starts = [m.start() for m in _BLOCK_START.finditer(text)]
    blocks = [text[a:b].strip() for a, b in zip(starts, starts[1:] + [len(text)])]
    definitions = tuple(b for b in blocks if _block_type(b) in _DEFINITIONS)
    entries = tuple(b for b in blocks if _block_type(b) not in _DEFINITIONS)
    return BibSource(name, definitions, entries)


def _block_type(block: str) -> str:
    match = re.match(r"@\s*(\w+)", block)
    return match.group(1).lower() if match else ""


def renamed(entry: str, suffix: str) -> str:
    """``entry`` with its key, and the keys it refers to, ending in ``suffix``."""
    entry = _ENTRY_HEAD.sub(lambda m: f"@{m.group(1)}{{{m.group(2)}{suffix},", entry, count=1)
    return _KEY_REFERENCE.sub(
        lambda m: m.group(1) + ",".join(k.strip() + suffix for k in m.group(2).split(",")),
        entry)


def bib_text(definitions: tuple[str, ...], entries: list[str] | tuple[str, ...]) -> str:
    """A .bib file's text: the definitions, then the entries, a blank line between blocks."""
    return "\n\n".join([*definitions, *entries]) + "\n"


def replicate(source: BibSource, copies: int) -> str:
    """``copies`` copies of ``source``'s entries with unique keys, after its definitions once."""
    return bib_text(source.definitions, [renamed(entry, f"-{copy}")
                                         for copy in range(1, copies + 1)
                                         for entry in source.entries])


def copies_for(source: BibSource, entries: int) -> int:
    """How many copies of ``source`` come nearest to ``entries`` entries (at least one)."""
    return max(1, round(entries / len(source.entries)))


# -- a generated .bib, for machines without TeX Live -----------------------------------------
GIVEN_NAMES = ("Jos{\\'e}", "Ana", "J{\\\"o}rg", "Zhengping", "Qinwei", "Fran{\\c{c}}ois",
               "Ingrid", "Sergei", "Mar{\\'\\i}a", "Donald E.", "Ada", "S{\\o}ren", "Hiroshi",
               "Ewa", "Ludwig", "Chidi", "Priya", "{\\L}ukasz", "Ren{\\'e}e", "Tom{\\'a}{\\v{s}}")
FAMILY_NAMES = ("Garc{\\'\\i}a", "M{\\\"u}ller", "Qian", "Yang", "Erd{\\H{o}}s", "Knuth",
                "van der Berg", "de la Cruz", "O'Neil", "Nakamura", "{\\v{S}}koda", "Smith",
                "Lovelace", "Kowalska", "Okafor", "Iyer", "{\\AA}str{\\\"o}m", "Dvo{\\v{r}}{\\'a}k",
                "von Neumann", "Wang")
TITLE_WORDS = ("graph", "learning", "estimation", "neural", "database", "query", "streaming",
               "optimal", "distributed", "sparse", "bounds", "scheduling", "cardinality",
               "inference", "language", "models", "networks", "systems", "memory", "random")
TITLE_EXTRAS = ("{DNA} Sequencing", "the {Fourier} Transform", "$O(n \\log n)$ Algorithms",
                "\\emph{in situ} Analysis", "Time--Space Trade-offs", "``Big Data''",
                "{LaTeX} and {Unicode}", "$\\alpha$-Stable Laws", "Na{\\\"\\i}ve Bayes", "{GPU}s")
JOURNALS = ("jacm", "tods", "vldbj", "Nature Communications", "Physical Review {E}",
            "Journal of Machine Learning Research", "Information Systems")
PUBLISHERS = ("Springer", "ACM", "Cambridge University Press", "Addison--Wesley",
              "O'Reilly", "MIT Press")
STRINGS = {"jacm": "Journal of the {ACM}", "tods": "{ACM} Transactions on Database Systems",
           "vldbj": "The {VLDB} Journal"}
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
ABSTRACT_SENTENCES = (
    "We study the problem in a setting where data arrive continuously and memory is limited.",
    "Our method runs in linear time and uses a constant number of passes over the input.",
    "Experiments on twelve public data sets show consistent gains over strong baselines.",
    "The analysis extends to weighted inputs and to the case of adversarial arrival orders.",
    "We release the code and the evaluation harness so that the results can be reproduced.",
)


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FAMILY_NAMES)}, {rng.choice(GIVEN_NAMES)}"


def _title(rng: random.Random) -> str:
    words = rng.sample(TITLE_WORDS, rng.randint(3, 6))
    words[0] = words[0].capitalize()
    extra = f" for {rng.choice(TITLE_EXTRAS)}" if rng.random() < 0.4 else ""
    return " ".join(words) + extra


def _generated_entry(rng: random.Random, number: int) -> str:
    kind = rng.choice(("article", "article", "inproceedings", "book", "incollection",
                       "phdthesis", "techreport", "online"))
    year = rng.randint(1950, 2026)
    authors = " and ".join(_person(rng) for _ in range(rng.randint(1, 6)))
    fields = [("author", f"{{{authors}}}"), ("title", f"{{{_title(rng)}}}"),
              ("year", str(year)), ("month", rng.choice(MONTHS))]
    if kind == "article":
        journal = rng.choice(JOURNALS)
        fields += [("journal", journal if journal in STRINGS else f"{{{journal}}}"),
                   ("volume", str(rng.randint(1, 90))), ("number", str(rng.randint(1, 12)))]
    elif kind in ("inproceedings", "incollection"):
        fields += [("booktitle", f"{{Proceedings of the {_title(rng)} Conference}}"),
                   ("editor", f"{{{_person(rng)} and {_person(rng)}}}")]
    elif kind == "book":
        fields += [("publisher", f"{{{rng.choice(PUBLISHERS)}}}"), ("edition", "2"),
                   ("isbn", f"{{978-3-16-{rng.randint(100000, 999999)}-0}}")]
    elif kind == "phdthesis":
        fields += [("school", "{Universit{\\'e} de Montr{\\'e}al}")]
    elif kind == "techreport":
        fields += [("institution", "{Technische Universit{\\\"a}t M{\\\"u}nchen}"),
                   ("number", f"{{TR-{year}-{number:05d}}}")]
    else:
        fields += [("url", f"{{https://example.org/papers/{number}?v=2&lang=en}}"),
                   ("urldate", f"{{{year}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}}}")]
    first = rng.randint(1, 900)
    fields += [("pages", f"{{{first}--{first + rng.randint(4, 40)}}}"),
               ("doi", f"{{10.{rng.randint(1000, 9999)}/gen.{number}}}"),
               ("abstract", "{" + " ".join(rng.sample(ABSTRACT_SENTENCES, 3)) + "}"),
               ("keywords", "{" + ", ".join(rng.sample(TITLE_WORDS, 3)) + "}")]
    body = ",\n".join(f"  {name:<10} = {value}" for name, value in fields)
    return f"@{kind}{{gen{number},\n{body},\n}}"


def generated_bib(entries: int, seed: int = 2026) -> BibSource:
    """A realistic .bib of ``entries`` entries, the same for the same arguments."""
    rng = random.Random(seed)
    definitions = tuple(f"@string{{{name} = {{{value}}}}}" for name, value in STRINGS.items())
    return BibSource("generated", definitions,
                     tuple(_generated_entry(rng, n) for n in range(1, entries + 1)))


@dataclass(frozen=True, slots=True)
class BuiltInput:
    """An input file written for one job and size."""

    path: Path
    entries: int
    origin: str  #: what it was built from, for the report


def write_bib(directory: Path, entries: int, source: BibSource | None) -> BuiltInput:
    """A .bib of about ``entries`` entries: ``source`` replicated, else a generated one."""
    if source is None:
        generated = generated_bib(entries)
        text = bib_text(generated.definitions, generated.entries)
        count, origin = entries, "generated .bib"
    else:
        copies = copies_for(source, entries)
        text = replicate(source, copies)
        count = copies * len(source.entries)
        origin = f"{source.name} x{copies}"
    path = directory / f"entries-{count}.bib"
    path.write_text(text, encoding="utf-8")
    return BuiltInput(path, count, origin)


SYLLABLES = ("ka", "ro", "mi", "te", "su", "na", "lo", "vi", "de", "ha", "zu", "pe", "ni",
             "bo", "ya", "fe")


def surname(number: int) -> str:
    """A made-up surname for each number (``Kovaro``), different for different numbers."""
    letters = ""
    while True:
        number, digit = divmod(number, len(SYLLABLES))
        letters += SYLLABLES[digit]
        if number == 0:
            return letters.capitalize()
        number -= 1


def _renamed_person(person: dict[str, Any], extra: str) -> dict[str, Any]:
    key = "literal" if "literal" in person else "family"
    return {**person, key: f"{person[key]} {extra}"} if key in person else person


def distinct_items(entries: int) -> list[dict[str, Any]]:
    """``entries`` sample items; copies after the first have names of their own."""
    items = sample_items(entries)
    copies: dict[str, int] = {}
    for item in items:
        original = item["id"].rsplit("-", 1)[0]  # sample_items appends "-<position>"
        copy = copies[original] = copies.get(original, -1) + 1
        if copy == 0:
            continue
        for role, value in item.items():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                item[role] = [_renamed_person(p, surname(copy)) for p in value]
    return items


def write_csl_items(directory: Path, entries: int) -> BuiltInput:
    """A CSL-JSON file of ``entries`` items (the APA job's input)."""
    path = directory / f"items-{entries}.json"
    path.write_text(json.dumps(distinct_items(entries), ensure_ascii=False), encoding="utf-8")
    return BuiltInput(path, entries, "samples' items, copies with names of their own")


def _library_text(name: str) -> str | None:
    """The TeX Live library ``name`` as every contender gets it, or None without it."""
    path = find_in_tex_live(name)
    if path is None:
        return None
    text = path.read_text(encoding="utf-8")
    for old, new in PEER_INCOMPATIBLE:
        text = text.replace(old, new)
    return text


def load_bib_source(name: str = BIBLATEX_EXAMPLES) -> BibSource | None:
    """The TeX Live library ``name`` split into blocks, or None without TeX Live."""
    text = _library_text(name)
    return None if text is None else split_bib(name, text)


def write_library(directory: Path, source: Path) -> BuiltInput:
    """The .bib ``source`` (a library given on the command line), written as it is (but for
    ``PEER_INCOMPATIBLE``)."""
    text = source.read_text(encoding="utf-8")
    for old, new in PEER_INCOMPATIBLE:
        text = text.replace(old, new)
    path = directory / source.name
    path.write_text(text, encoding="utf-8")
    return BuiltInput(path, len(split_bib(source.name, text).entries), source.name)


def write_real_libraries(directory: Path) -> list[BuiltInput]:
    """Each of ``REAL_LIBRARY_FILES`` that TeX Live has, written as it is (but for
    ``PEER_INCOMPATIBLE``)."""
    found = []
    for name in REAL_LIBRARY_FILES:
        text = _library_text(name)
        if text is not None:
            path = directory / name
            path.write_text(text, encoding="utf-8")
            found.append(BuiltInput(path, len(split_bib(name, text).entries), name))
    return found
