"""Who runs each benchmark job: refbridge and its peers, as command lines, with what they need.

Jobs: ``bib-csl`` (.bib to CSL-JSON with LaTeX decoded), ``apa`` (CSL-JSON items to an APA
bibliography as plain text), and on real libraries as they are, ``real-csl`` (.bib to CSL-JSON)
``real-bib`` (.bib to .bib) and ``real-apa`` (the library's items, as refbridge's CSL-JSON, to an
APA bibliography as plain text). Peers: Citation.js and citeproc-js (Node, through the checkers in
``../shared/tools``), bibtex-tidy (.bib -> .bib), pandoc, and the Python parsers bibtexparser 2 and pybtex, which only parse
(marked "parse only": no CSL-JSON, so not a like-for-like rival). Each contender says why it
cannot run on this machine, and the largest input worth giving it (the slow peers would take
minutes or gigabytes beyond that). ``cold_start_commands`` are the profile-page commands whose
start-up time is measured. This module must never run or time anything.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
TOOLS = SHARED / "tools"
APA_STYLE = SHARED / "csl" / "apa.csl"
#: Citation.js reading a .bib and writing BibTeX (the peer of ``--to biblatex``).
CITATION_JS_BIBTEX = Path(__file__).resolve().parent / "citationjs_bibtex.js"
PROFILE_PAGE = ROOT / "samples" / "qinwei-yang.profile.txt"
NODE_MODULES = Path(os.environ.get("CSL_REF_NODE_MODULES") or
                    Path.home() / ".cache" / "refbridge-reference-js" / "node_modules")

BIB_TO_CSL = "bib-csl"
APA = "apa"
#: The real-library jobs: each library as it is (not replicated), refbridge in one process.
REAL_TO_CSL = "real-csl"
REAL_TO_BIB = "real-bib"
REAL_APA = "real-apa"
REAL_JOBS = (REAL_TO_CSL, REAL_TO_BIB, REAL_APA)
JOB_TITLES: dict[str, str] = {
    BIB_TO_CSL: ".bib -> CSL-JSON, LaTeX decoded",
    APA: "APA bibliography (plain text) from CSL-JSON",
    REAL_TO_CSL: "real libraries: .bib -> CSL-JSON",
    REAL_TO_BIB: "real libraries: .bib -> .bib (BibLaTeX)",
    REAL_APA: "real libraries: CSL-JSON items -> APA bibliography (plain text)",
}

REFBRIDGE = "refbridge"
#: refbridge held to one process (``--jobs 1``): by default a large .bib is converted on every
#: CPU, and this shows what one core does.
REFBRIDGE_ONE_PROCESS = "refbridge, one process"
CITATION_JS = "Citation.js"
PANDOC = "pandoc"
CITEPROC_JS = "citeproc-js"
#: bibtex-tidy (Node) cleans a .bib into a .bib: the peer of .bib -> .bib.
BIBTEX_TIDY = "bibtex-tidy"

Command = Callable[[Path, Path], list[str]]


@dataclass(frozen=True, slots=True)
class Contender:
    """One program doing one job."""

    name: str
    job: str
    command: Command  #: the command line for (input, output)
    prints_output: bool  #: the output comes on standard output (else the command writes it)
    missing: Callable[[], str | None]  #: why it cannot run here; None when it can
    max_entries: int | None = None  #: larger inputs are skipped
    parse_only: bool = False  #: parses the .bib without producing CSL-JSON
    #: the exit statuses after which the output is written: refbridge's 3 says it is, but
    #: that some values changed to be written (a real library's control characters ...)
    written: frozenset[int] = frozenset({0})


def _refbridge(*arguments: str) -> list[str]:
    return [sys.executable, "-m", REFBRIDGE, *arguments]


def _python_script(script: str) -> Command:
    return lambda source, output: [sys.executable, "-c", script, str(source)]


def _needs_module(module: str) -> Callable[[], str | None]:
    return lambda: None if importlib.util.find_spec(module) else f"Python module {module} absent"


def _needs_program(program: str) -> Callable[[], str | None]:
    return lambda: None if shutil.which(program) else f"{program} not installed"


def _needs_node_tool(tool: str, package: str) -> Callable[[], str | None]:
    def missing() -> str | None:
        if shutil.which("node") is None:
            return "node not installed"
        if not (TOOLS / tool).exists():
            return f"{TOOLS / tool} absent"
        if not (NODE_MODULES / package).exists():
            return f"{package} not in {NODE_MODULES} (run ../shared/tools/setup-js.sh)"
        return None
    return missing


def _refbridge_reads_bib() -> str | None:
    from refbridge.registry import get_reader, reader_names

    if any(".bib" in get_reader(name).extensions for name in reader_names()):
        return None
    return "no refbridge reader for .bib files is installed"


def _needs_apa_style() -> str | None:
    return None if APA_STYLE.exists() else f"{APA_STYLE} absent"


def _both(*checks: Callable[[], str | None]) -> Callable[[], str | None]:
    return lambda: next((reason for check in checks if (reason := check())), None)


def _pandoc_citeproc(source: Path, output: Path) -> list[str]:
    document = output.parent / "nocite.md"
    document.write_text('---\nnocite: "@*"\n---\n', encoding="utf-8")
    return [PANDOC, "--citeproc", "--csl", str(APA_STYLE), "--bibliography", str(source),
            "-t", "plain", "--wrap=none", str(document), "-o", str(output)]


BIBTEXPARSER_PARSE = ("import sys, bibtexparser\n"
                      "print(len(bibtexparser.parse_file(sys.argv[1]).entries))")
BIBTEXPARSER_DECODE = ("import sys, bibtexparser\n"
                       "from bibtexparser.middlewares import LatexDecodingMiddleware\n"
                       "library = bibtexparser.parse_file(\n"
                       "    sys.argv[1], append_middleware=[LatexDecodingMiddleware()])\n"
                       "print(len(library.entries))")
PYBTEX_PARSE = ("import sys\nfrom pybtex.database import parse_file\n"
                "print(len(parse_file(sys.argv[1], 'bibtex').entries))")

def _refbridge_convert(target: str, *options: str) -> Command:
    return lambda source, output: _refbridge("convert", str(source), "--to", target, *options,
                                             "-o", str(output))


def _pandoc_convert(target: str) -> Command:
    return lambda source, output: [PANDOC, "-f", "biblatex", "-t", target, str(source), "-o",
                                   str(output)]


def _citation_js_parse(source: Path, output: Path) -> list[str]:
    return ["node", str(TOOLS / "citationjs-parse.js"), str(source), "bib"]


def _apa_formatters(job: str) -> tuple[Contender, ...]:
    """refbridge, pandoc and citeproc-js formatting CSL-JSON items in APA, for ``job``."""
    return (
        Contender(REFBRIDGE, job,
                  lambda source, output: _refbridge("format", str(source), "--style", "apa",
                                                    "-o", str(output)),
                  False, lambda: None),
        Contender(PANDOC, job, _pandoc_citeproc, False,
                  _both(_needs_program(PANDOC), _needs_apa_style), max_entries=20_000),
        Contender(CITEPROC_JS, job,
                  lambda source, output: ["node", str(TOOLS / "csl-reference.js"),
                                          str(APA_STYLE), str(source), "text"],
                  True, _both(_needs_node_tool("csl-reference.js", "citeproc"), _needs_apa_style),
                  max_entries=20_000),
    )


_NEEDS_CITATION_JS = _needs_node_tool("citationjs-parse.js", "@citation-js/core")

CONTENDERS: tuple[Contender, ...] = (
    Contender(REFBRIDGE, BIB_TO_CSL, _refbridge_convert("csl-json"), False,
              _refbridge_reads_bib),
    Contender(REFBRIDGE_ONE_PROCESS, BIB_TO_CSL, _refbridge_convert("csl-json", "--jobs", "1"),
              False, _refbridge_reads_bib),
    Contender(CITATION_JS, BIB_TO_CSL, _citation_js_parse, True, _NEEDS_CITATION_JS),
    Contender(PANDOC, BIB_TO_CSL, _pandoc_convert("csljson"), False, _needs_program(PANDOC),
              max_entries=20_000),
    Contender("bibtexparser 2", BIB_TO_CSL, _python_script(BIBTEXPARSER_PARSE), True,
              _needs_module("bibtexparser"), parse_only=True),
    Contender("bibtexparser 2 + LaTeX decoding", BIB_TO_CSL,
              _python_script(BIBTEXPARSER_DECODE), True, _needs_module("bibtexparser"),
              max_entries=20_000, parse_only=True),
    Contender("pybtex", BIB_TO_CSL, _python_script(PYBTEX_PARSE), True,
              _needs_module("pybtex"), parse_only=True),
    Contender(REFBRIDGE, REAL_TO_CSL, _refbridge_convert("csl-json", "--jobs", "1"), False,
              _refbridge_reads_bib, written=frozenset({0, 3})),
    Contender(CITATION_JS, REAL_TO_CSL, _citation_js_parse, True, _NEEDS_CITATION_JS),
    Contender(PANDOC, REAL_TO_CSL, _pandoc_convert("csljson"), False, _needs_program(PANDOC)),
    Contender(REFBRIDGE, REAL_TO_BIB, _refbridge_convert("biblatex", "--jobs", "1"), False,
              _refbridge_reads_bib, written=frozenset({0, 3})),
    Contender(CITATION_JS, REAL_TO_BIB,
              lambda source, output: ["node", str(CITATION_JS_BIBTEX), str(source)],
              True, _needs_node_tool("citationjs-parse.js", "@citation-js/plugin-bibtex")),
    Contender(PANDOC, REAL_TO_BIB, _pandoc_convert("biblatex"), False, _needs_program(PANDOC)),
    Contender(BIBTEX_TIDY, REAL_TO_BIB,
              lambda source, output: [BIBTEX_TIDY, str(source), "--output", str(output)],
              False, _needs_program(BIBTEX_TIDY)),
    *_apa_formatters(APA),
    *_apa_formatters(REAL_APA),
)


def contenders_for(job: str) -> list[Contender]:
    return [c for c in CONTENDERS if c.job == job]


def cold_start_commands() -> list[tuple[str, list[str]]]:
    """(label, command) for refbridge commands on a profile page, for every installed writer
    of a bibliography file format, and the APA formatter."""
    from refbridge.registry import writer_names

    page = str(PROFILE_PAGE)
    commands = [(f"convert profile page --to {name}", _refbridge("convert", page, "--to", name))
                for name in writer_names()]
    commands.append(("format profile page --style apa",
                     _refbridge("format", page, "--style", "apa")))
    return commands
