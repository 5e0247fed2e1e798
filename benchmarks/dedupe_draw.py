"""Draw the candidate pairs of one library for ``dedupe_labels_git.json``, as its ``about``
text defines them, so that a new round of labels is drawn the way the earlier ones were:

    .venv/bin/python benchmarks/dedupe_draw.py --mirrors DIR NAME
    .venv/bin/python benchmarks/dedupe_draw.py --mirrors DIR NAME --repository OWNER+NAME \\
        --commit COMMIT --paths FILE... [--round held-out-5]

``DIR/owner+name/repo`` is a git clone (bare or not) of each repository. A NAME already in the
JSON's ``libraries`` is read from the commit and files listed there; another needs
``--repository``, ``--commit`` and ``--paths`` (in the order bibtex reads them, @string files
first). The files are read as one text by refbridge's reader, each citation key's first entry
kept. Every pair of its entries (``a`` the earlier one) is drawn that is, under the first of
these that applies:

- ``same-doi``: one DOI (lower case, without a resolver prefix or ``doi:``);
- ``author-year-title``: one first author's family name, one year, and lower-case ASCII titles
  (TeX commands dropped) of ``difflib`` ratio > 0.8;
- ``author-nearyear-title``: one first author's family name, years 1 to 3 apart, a ratio > 0.9,
  and not one of the first authors with more than 400 entries.

As the earlier rounds were drawn: the first author is the first editor of an entry without
authors, a literal (corporate) name stands for a family name, both are compared in lower-case
ASCII too, titles are their plain text as the reader gives it (braces and backslashes dropped
too), and an entry without a year has no pair but by DOI.

Printed on standard output: the library's entry for ``libraries`` and its pairs in the JSON's
shape (``a``, ``b``, ``sample``: the method, after ``--round``'s prefix), with ``same`` and
``reason`` left empty for the labeller; on standard error, how many entries and pairs, and, for
a library already in the JSON, how many of its labelled pairs were drawn again. This is a
measuring tool: it never writes the labels or any library text (only keys), it asserts
nothing, and the tests never run it.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from dedupe import GIT_LABELS, _git_dir, _git_text

from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.pipeline import read_stream

#: The methods in the order a pair is filed under the first that applies.
METHODS = ("same-doi", "author-year-title", "author-nearyear-title")
#: First authors with more entries than this are left out of ``author-nearyear-title``.
PROLIFIC = 400
_RESOLVER = re.compile(r"^(?:https?://)?(?:dx\.)?doi\.org/|^doi:\s*", re.IGNORECASE)
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_TEX_MARKS = re.compile(r"[{}\\]")


@dataclass(frozen=True)
class Entry:
    """What the drawing compares of one entry."""

    key: str
    doi: str | None
    author: str | None
    year: int | None
    title: str


def ascii_text(text: str) -> str:
    """``text`` lower-case ASCII, TeX commands, braces and backslashes dropped, spaces
    collapsed."""
    decomposed = _TEX_COMMAND.sub("", unicodedata.normalize("NFKD", text))
    lowered = decomposed.encode("ascii", "ignore").decode().lower()
    return " ".join(_TEX_MARKS.sub("", lowered).split())


def entry(record: Record) -> Entry:
    """The DOI, first author's family name, year and title of ``record`` as compared."""
    doi = _RESOLVER.sub("", (record.get("DOI") or "").strip().lower())
    names = record.names.get("author") or record.names.get("editor") or ()
    family = (names[0].family or names[0].literal) if names else None
    return Entry(str(record.citation_key), doi or None, ascii_text(family) if family else None,
                 record.year, ascii_text(record.title or ""))


def entries(text: str, source: str) -> list[Entry]:
    """The entries of ``text`` in order, each citation key's first one."""
    seen: dict[str, Entry] = {}
    for record in read_stream(io.StringIO(text), text, source, Diagnostics()):
        seen.setdefault(str(record.citation_key), entry(record))
    return list(seen.values())


def method(a: Entry, b: Entry, prolific: set[str]) -> str | None:
    """The first method under which ``a`` and ``b`` are a candidate pair, or None."""
    if a.doi and a.doi == b.doi:
        return "same-doi"
    if not a.author or a.author != b.author or a.year is None or b.year is None \
            or not a.title or not b.title:
        return None
    apart = abs(a.year - b.year)
    if apart > 3 or (apart and a.author in prolific):
        return None
    ratio = difflib.SequenceMatcher(None, a.title, b.title).ratio()
    if apart == 0:
        return "author-year-title" if ratio > 0.8 else None
    return "author-nearyear-title" if ratio > 0.9 else None


def draw(drawn: list[Entry]) -> list[tuple[str, str, str]]:
    """Every candidate pair of ``drawn`` as (earlier key, later key, method), in order."""
    counts = Counter(e.author for e in drawn if e.author)
    prolific = {author for author, count in counts.items() if count > PROLIFIC}
    pairs = []
    for number, a in enumerate(drawn):
        for b in drawn[number + 1:]:
            found = method(a, b, prolific)
            if found:
                pairs.append((a.key, b.key, found))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="the library's name (the prefix of its keys in the JSON)")
    parser.add_argument("--mirrors", type=Path, metavar="DIR", required=True,
                        help="directory of git mirrors: DIR/owner+name/repo")
    parser.add_argument("--repository", metavar="OWNER+NAME")
    parser.add_argument("--commit")
    parser.add_argument("--paths", nargs="+", metavar="FILE")
    parser.add_argument("--round", default="", metavar="PREFIX",
                        help="prefix of the sample names (held-out-5: held-out-5-same-doi)")
    arguments = parser.parse_args()
    labels = json.loads(GIT_LABELS.read_text(encoding="utf-8"))
    given = {"repository": arguments.repository, "commit": arguments.commit,
             "paths": arguments.paths}
    library = labels["libraries"].get(arguments.name) if not any(given.values()) else given
    if library is None or not all(library.values()):
        parser.error(f"{arguments.name} is not in {GIT_LABELS.name}: give --repository, "
                     "--commit and --paths")
    git_dir = _git_dir(arguments.mirrors, library["repository"])
    text = None if git_dir is None else _git_text(git_dir, library["commit"], library["paths"])
    if text is None:
        print(f"dedupe_draw: {arguments.mirrors} lacks {library['repository']} at "
              f"{library['commit'][:10]} or one of its files", file=sys.stderr)
        return 1
    drawn = entries(text, library["paths"][-1])
    prefix = f"{arguments.round}-" if arguments.round else ""
    pairs = [{"a": f"{arguments.name}:{a}", "b": f"{arguments.name}:{b}", "same": None,
              "sample": prefix + found, "reason": ""} for a, b, found in draw(drawn)]
    print(json.dumps({"libraries": {arguments.name: library}, "pairs": pairs}, indent=1,
                     ensure_ascii=False))
    counted = Counter(str(pair["sample"]) for pair in pairs)
    print(f"{arguments.name}: {len(drawn)} entries, {len(pairs)} pairs ("
          + ", ".join(f"{counted[prefix + m]} {m}" for m in METHODS) + ")", file=sys.stderr)
    labelled = {(p["a"], p["b"]) for p in labels["pairs"]
                if p["a"].startswith(f"{arguments.name}:")}
    if labelled:
        again = labelled & {(str(p["a"]), str(p["b"])) for p in pairs}
        print(f"{arguments.name}: {len(again)} of its {len(labelled)} labelled pairs drawn "
              "again", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
