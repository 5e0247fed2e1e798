"""Does a real library survive refbridge? ``python benchmarks/fidelity.py FILE.bib ...``

Converts each ``.bib`` with refbridge (``.bib`` -> ``.bib`` directly, and through CSL-JSON),
then runs the real tools on the original and on each conversion and compares what they print,
entry by entry:

- ``bibtex`` with the styles ``plain``, ``alpha``, ``unsrt`` and ``plainnat``: the ``.bbl``
  block of each entry (its ``\\bibitem`` label and text);
- ``biber`` (through a ``.bcf`` that biblatex wrote): each ``\\entry`` of the ``.bbl``, that is
  the fields, names, ranges and lists biblatex typesets from.

Two blocks are the same when they are the same text after runs of white space are made one
space (the tools wrap long lines where the text happens to be long). An entry counts as
identical for a tool when it is identical in every style. The differences are printed with the
entry, the tool and the first differing text, so that each can be traced to its cause.

Each tool reads the conversion to its own dialect (``--to bibtex`` for bibtex, ``--to biblatex``
for biber), except for a library that has entries written for BibLaTeX (a BibLaTeX-only entry
type such as ``@online``, or a field such as ``date``, ``journaltitle`` or ``location``, which
bibtex's styles do not read): converting those ``--to bibtex`` is meant to change what bibtex
prints (their date becomes ``year``/``month``, and the labels of their neighbours change with
it), so for such a library bibtex reads the conversion in the library's own dialect,
``--to biblatex``. Which entries those are is decided with bibtexparser, independently of
refbridge (with the entries that inherit from them through ``crossref``), and their number is
printed. ``--strict-dialects`` turns this off: bibtex reads ``--to bibtex`` whatever the
library holds (a BibTeX file that carries BibLaTeX fields, as the ACL Anthology's export does
with ``location``, converted into its own dialect must keep what bibtex prints).

This is a measuring tool, not a test: it asserts nothing. The test suite runs it on the
libraries TeX Live ships (tests/formats/bibtex/test_fidelity.py) and keeps a floor.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIBTEX_STYLES: tuple[str, ...] = ("plain", "alpha", "unsrt", "plainnat")
#: How the library goes through refbridge: straight to .bib, through CSL-JSON, and straight
#: with ``--normalize`` (every value encoded and laid out by the writer, no source spelling).
ROUTES: tuple[str, ...] = ("direct", "csl-json", "normalized")
#: The target dialect of each tool: bibtex reads what ``--to bibtex`` writes, biber what
#: ``--to biblatex`` writes.
DIALECT_OF_TOOL: dict[str, str] = {"bibtex": "bibtex", "biber": "biblatex"}

_BIBITEM_START = re.compile(r"\\bibitem\b")
_BIBER_ENTRY = re.compile(r"^\s*\\entry\{([^}]*)\}", re.MULTILINE)
_SPACE = re.compile(r"\s+")

#: The document that makes biblatex write the .bcf biber reads (every entry cited).
BIBLATEX_DOCUMENT = r"""\documentclass{article}
\usepackage[backend=biber]{biblatex}
\addbibresource{library.bib}
\begin{document}
\nocite{*}
\printbibliography
\end{document}
"""


#: BibLaTeX's entry types and fields that classic BibTeX styles do not know (the biblatex
#: manual, sections 2.1 and 2.2), for telling which entries were written for BibLaTeX.
BIBLATEX_ENTRY_TYPES: frozenset[str] = frozenset(
    {"online", "mvbook", "bookinbook", "suppbook", "collection", "mvcollection",
     "suppcollection", "dataset", "patent", "periodical", "suppperiodical", "mvproceedings",
     "reference", "mvreference", "inreference", "report", "set", "software", "thesis",
     "xdata", "artwork", "audio", "bibnote", "commentary", "image", "jurisdiction",
     "legislation", "legal", "letter", "movie", "music", "performance", "review",
     "standard", "video"})
BIBLATEX_FIELDS: frozenset[str] = frozenset(
    {"date", "journaltitle", "location", "urldate", "eventdate", "origdate", "eventtitle",
     "venue", "subtitle", "titleaddon", "booksubtitle", "journalsubtitle", "maintitle",
     "pagetotal", "eprinttype", "eprintclass", "pubstate", "xdata",
     "entryset", "related", "ids", "langid", "origlocation", "origpublisher", "shortjournal"})


def biblatex_entries(bib: Path) -> set[str]:
    """Keys of the entries of ``bib`` written for BibLaTeX (read with bibtexparser)."""
    import bibtexparser

    library = bibtexparser.parse_file(str(bib))
    keys = {entry.key for entry in library.entries
            if entry.entry_type.lower() in BIBLATEX_ENTRY_TYPES
            or any(f.key.lower() in BIBLATEX_FIELDS for f in entry.fields)}
    parents = {entry.key: str(entry.fields_dict["crossref"].value).lower()
               for entry in library.entries if "crossref" in entry.fields_dict}
    lowered = {key.lower() for key in keys}
    return keys | {key for key, parent in parents.items() if parent in lowered}


class ToolFailed(RuntimeError):
    """A real tool stopped with an error on a library."""


def _normalized(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _run(command: Sequence[str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", errors="replace", timeout=timeout, check=False)


def bibtex_blocks(bib: Path, style: str, workdir: Path) -> dict[str, str]:
    """Each entry's ``.bbl`` block (label and text) from real ``bibtex`` with ``style``."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(bib, workdir / "library.bib")
    (workdir / "doc.aux").write_text(
        f"\\relax\n\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{library}}\n",
        encoding="utf-8")
    result = _run(["bibtex", "-terse", "doc"], workdir)
    bbl = workdir / "doc.bbl"
    if not bbl.exists():
        raise ToolFailed(f"bibtex {style}: {result.stdout[-500:]} {result.stderr[-500:]}")
    return split_bbl(bbl.read_text(encoding="utf-8", errors="replace"))


def split_bbl(text: str) -> dict[str, str]:
    """A bibtex ``.bbl`` cut at its ``\\bibitem``s: key -> normalized block."""
    end = text.rfind("\\end{thebibliography}")
    text = text[:end] if end != -1 else text
    items = list(_bibitems(text))
    blocks: dict[str, str] = {}
    for index, (start, key) in enumerate(items):
        stop = items[index + 1][0] if index + 1 < len(items) else len(text)
        blocks[key] = _normalized(text[start:stop])
    return blocks


def _bibitems(text: str) -> Iterable[tuple[int, str]]:
    """Where each ``\\bibitem[label]{key}`` starts, and its key (labels nest braces)."""
    for match in _BIBITEM_START.finditer(text):
        position = match.end()
        if text.startswith("[", position):
            depth = 0
            while position < len(text):
                char = text[position]
                depth += 1 if char in "[{" else -1 if char in "]}" else 0
                position += 1
                if depth == 0:
                    break
        key = re.match(r"\s*\{([^}]*)\}", text[position:])
        if key is not None:
            yield match.start(), key.group(1)


@dataclass
class BiberSetup:
    """A ``.bcf`` written by biblatex once, reused for every library."""

    bcf: str

    @classmethod
    def make(cls, workdir: Path) -> BiberSetup:
        workdir.mkdir(parents=True, exist_ok=True)
        (workdir / "library.bib").write_text("", encoding="utf-8")
        (workdir / "doc.tex").write_text(BIBLATEX_DOCUMENT, encoding="utf-8")
        _run(["pdflatex", "-interaction=batchmode", "-draftmode", "doc"], workdir)
        bcf = workdir / "doc.bcf"
        if not bcf.exists():
            raise ToolFailed("pdflatex did not write doc.bcf (is biblatex installed?)")
        return cls(bcf.read_text(encoding="utf-8"))


def biber_blocks(bib: Path, setup: BiberSetup, workdir: Path) -> dict[str, str]:
    """Each entry's ``\\entry ... \\endentry`` block from real ``biber``."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(bib, workdir / "library.bib")
    (workdir / "doc.bcf").write_text(setup.bcf, encoding="utf-8")
    result = _run(["biber", "--quiet", "doc"], workdir)
    bbl = workdir / "doc.bbl"
    if not bbl.exists():
        raise ToolFailed(f"biber: {result.stdout[-500:]} {result.stderr[-500:]}")
    return split_biber_bbl(bbl.read_text(encoding="utf-8", errors="replace"))


def split_biber_bbl(text: str) -> dict[str, str]:
    """A biblatex ``.bbl`` cut at its ``\\entry``s: key -> normalized block (without the
    ``\\entry`` line's trailing options, which hold nothing of the data)."""
    blocks: dict[str, str] = {}
    matches = list(_BIBER_ENTRY.finditer(text))
    for index, match in enumerate(matches):
        stop = text.find("\\endentry", match.end())
        stop = stop if stop != -1 else (matches[index + 1].start() if index + 1 < len(matches)
                                        else len(text))
        blocks.setdefault(match.group(1), _normalized(text[match.start():stop]))
    return blocks


def refbridge(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run the refbridge command line of this checkout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "refbridge", *args], capture_output=True,
                          text=True, env=env, check=False, timeout=3600)


def convert(original: Path, route: str, dialect: str, workdir: Path,
            extra: Sequence[str] = ()) -> tuple[Path, str]:
    """``original`` through refbridge to ``dialect`` by ``route``; (the new .bib, messages)."""
    workdir.mkdir(parents=True, exist_ok=True)
    out = workdir / f"{route}-{dialect}.bib"
    messages = ""
    source = original
    if route == "csl-json":
        json_path = workdir / "library.json"
        if not json_path.exists():
            result = refbridge(["convert", str(original), "--to", "csl-json", "-o",
                                str(json_path), "--skip-invalid", *extra])
            messages += result.stderr
            if result.returncode not in (0, 3):
                raise ToolFailed(f"refbridge to csl-json: {result.stderr[-800:]}")
        source = json_path
    normalize = ["--normalize"] if route == "normalized" else []
    result = refbridge(["convert", str(source), "--to", dialect, "-o", str(out),
                        "--skip-invalid", *normalize, *extra])
    messages += result.stderr
    if result.returncode not in (0, 3):
        raise ToolFailed(f"refbridge to {dialect}: {result.stderr[-800:]}")
    return out, messages


@dataclass
class Difference:
    key: str
    check: str  #: "bibtex plain", "biber", ...
    before: str | None
    after: str | None

    def explain(self, width: int = 160) -> str:
        if self.after is None:
            return f"{self.key} [{self.check}]: missing after conversion"
        if self.before is None:
            return f"{self.key} [{self.check}]: not in the original's output"
        return f"{self.key} [{self.check}]: {first_difference(self.before, self.after, width)}"


def first_difference(before: str, after: str, width: int = 160) -> str:
    """Where two texts first differ, with a little context: ``...was... -> ...is...``."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            start = max(0, i1 - 30)
            span = width // 2
            return (f"...{before[start:max(i2, i1) + span // 3]!s} -> "
                    f"...{after[max(0, j1 - 30):max(j2, j1) + span // 3]!s}")
    return "(same)"


@dataclass
class ToolResult:
    """One tool's comparison of a library: entries compared, entries that differ."""

    dialect: str = "bibtex"  #: what the conversion the tool read was written in
    entries: set[str] = field(default_factory=set)
    differing: dict[str, list[Difference]] = field(default_factory=dict)

    def add(self, check: str, before: dict[str, str], after: dict[str, str]) -> None:
        self.entries.update(before)
        for key, text in before.items():
            other = after.get(key)
            if other != text:
                self.differing.setdefault(key, []).append(Difference(key, check, text, other))
        for key in after.keys() - before.keys():
            self.differing.setdefault(key, []).append(Difference(key, check, None, after[key]))

    @property
    def identical(self) -> int:
        return len(self.entries - self.differing.keys())

    def share(self) -> float:
        return self.identical / len(self.entries) if self.entries else 1.0


@dataclass
class LibraryResult:
    library: Path
    route: str
    tools: dict[str, ToolResult] = field(default_factory=dict)
    messages: str = ""
    skipped: list[str] = field(default_factory=list)  #: checks the original fails
    biblatex_entries: int = 0  #: entries written for BibLaTeX


def check_library(original: Path, route: str, workdir: Path, styles: Sequence[str],
                  biber: BiberSetup | None, extra: Sequence[str] = (),
                  before_cache: dict[str, dict[str, str]] | None = None,
                  strict_dialects: bool = False) -> LibraryResult:
    """Compare the real tools' output for ``original`` and for its conversion by ``route``;
    with ``strict_dialects`` bibtex reads ``--to bibtex`` even for a library with BibLaTeX
    fields (a BibTeX file that carries ``location``, as the ACL Anthology's export does)."""
    result = LibraryResult(original, route)
    cache = before_cache if before_cache is not None else {}
    biblatex_only = biblatex_entries(original)
    shutil.rmtree(workdir / route, ignore_errors=True)  # nothing from an earlier run
    for tool, dialect in DIALECT_OF_TOOL.items():
        if tool == "biber" and biber is None:
            continue
        if tool == "bibtex" and biblatex_only and not strict_dialects:
            dialect = "biblatex"  # the library's own dialect (see the module docstring)
            result.biblatex_entries = len(biblatex_only)
        converted, messages = convert(original, route, dialect, workdir / route, extra)
        result.messages += messages
        tool_result = result.tools.setdefault(tool, ToolResult(dialect=dialect))
        checks = [f"bibtex {s}" for s in styles] if tool == "bibtex" else ["biber"]
        for check in checks:
            name = check.replace(" ", "-")
            try:
                if check not in cache:
                    cache[check] = _blocks(check, original, workdir / "original" / name, biber)
            except ToolFailed as failure:  # the tool rejects the library itself: no measure
                result.skipped.append(f"{check}: {str(failure)[:200]}")
                continue
            after = _blocks(check, converted, workdir / route / name, biber)
            tool_result.add(check, cache[check], after)
        if not tool_result.entries:
            del result.tools[tool]
    return result


def _blocks(check: str, bib: Path, workdir: Path, biber: BiberSetup | None) -> dict[str, str]:
    if check == "biber":
        assert biber is not None
        return biber_blocks(bib, biber, workdir)
    return bibtex_blocks(bib, check.split()[1], workdir)


def report(results: Iterable[LibraryResult], show: int) -> str:
    lines: list[str] = []
    totals: dict[tuple[str, str], list[int]] = {}
    for result in results:
        for skipped in result.skipped[:1] if show else ():
            lines.append(f"{result.library.name:32} {result.route:8} skipped: {skipped}")
        for tool, tool_result in result.tools.items():
            count = len(tool_result.entries)
            note = (f" (reads --to {tool_result.dialect}: {result.biblatex_entries} "
                    "BibLaTeX entries)" if tool == "bibtex" and tool_result.dialect != "bibtex"
                    else "")
            lines.append(f"{result.library.name:32} {result.route:8} {tool:6} "
                         f"{tool_result.identical:6}/{count:<6} "
                         f"{100 * tool_result.share():6.2f}% identical{note}")
            total = totals.setdefault((result.route, tool), [0, 0])
            total[0] += tool_result.identical
            total[1] += count
            for key in sorted(tool_result.differing)[:show]:
                for difference in tool_result.differing[key][:1]:
                    lines.append("    " + difference.explain())
    lines.append("")
    for (route, tool), (same, count) in sorted(totals.items()):
        lines.append(f"{'all libraries':32} {route:8} {tool:6} {same:6}/{count:<6} "
                     f"{100 * same / max(count, 1):6.2f}% identical")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("libraries", nargs="+", type=Path)
    parser.add_argument("--styles", default=",".join(BIBTEX_STYLES))
    parser.add_argument("--routes", default=",".join(ROUTES))
    parser.add_argument("--no-biber", action="store_true")
    parser.add_argument("--show", type=int, default=10, help="differences shown per library")
    parser.add_argument("--strict-dialects", action="store_true",
                        help="bibtex always reads the conversion --to bibtex")
    parser.add_argument("--keep", type=Path, help="keep the work files in this folder")
    parser.add_argument("refbridge_options", nargs="*", default=[],
                        help="after --: options for refbridge convert")
    args = parser.parse_args(argv)
    for tool in ("bibtex", "pdflatex") + (() if args.no_biber else ("biber",)):
        if shutil.which(tool) is None:
            print(f"fidelity: {tool} is not installed", file=sys.stderr)
            return 2
    styles = [s for s in args.styles.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="refbridge-fidelity-") as tmp:
        base = args.keep or Path(tmp)
        biber = None if args.no_biber else BiberSetup.make(base / "biber-setup")
        results = []
        for index, library in enumerate(args.libraries):
            cache: dict[str, dict[str, str]] = {}
            for route in args.routes.split(","):
                workdir = base / f"{index}-{library.stem}"
                result = check_library(library, route, workdir, styles, biber,
                                       args.refbridge_options, cache, args.strict_dialects)
                results.append(result)
                print(report([result], args.show), flush=True)
        print("\n" + report(results, 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
