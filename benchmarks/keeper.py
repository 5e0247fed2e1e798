"""Does refbridge keep what a real .bib holds? ``python benchmarks/keeper.py [FILE.bib ...]
[--dir DIR ...]``

For each library (real ones other people wrote: TeX Live's .bib files and JabRef's importer
fixtures in ``../shared`` by default; JabRef-managed or Better BibTeX-exported libraries you
downloaded, given as paths or with ``--dir``, never committed), it runs refbridge's command
line on a copy and counts, for each route:

- ``bibtex``, ``biblatex``: ``convert --to bibtex`` / ``--to biblatex``;
- ``csl-json``, ``ris``, ``hayagriva``, ``zotero``: the trip .bib -> that format -> .bib;
- ``fmt``: ``fmt`` without options; ``check --fix``: ``check --fix`` without other options;

what the result lost against the original: **keys** changed (a key of the original that no
entry of the result has; an entry without a key that gets one is not counted), **entries** lost or merged (fewer entries than the original), and
**blocks** changed or moved: the original's non-entry blocks (``@comment``, ``@preamble``,
``@string``) and the text between blocks (``%`` lines, free text) that the result does not have
(white space apart; an ``@string`` by its macro's name, in any case, and value, in any
delimiters), or has before another entry. The .bib files are cut into blocks by
refbridge's tokenizer (``tidy.document``), which reads what BibTeX reads. A route that fails
is counted as ``failed`` with its exit status. It prints a table per library and the totals.

It also measures the peak memory of ``fmt --check`` beside ``convert --to bibtex`` (on every
CPU, and on one) on the same file (the largest library, or with ``--large MB`` TeX Live's ``tugboat.bib`` replicated to that
size, ``workloads.replicate``): the ratio, whose goal is at most 1.5.

This is a measuring tool: it prints figures and asserts nothing; its exit status is 0 unless
it could not run at all. The tests never run it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from measure import run_measured
from workloads import TUGBOAT, load_bib_source, replicate

from refbridge.cli import main as refbridge_main
from refbridge.formats.bibtex.syntax import Block
from refbridge.tidy.document import read_document

SHARED = ROOT.parent / "shared"
JABREF_FIXTURES = SHARED / "conformance" / "jabref-importer"
TEX_LIVE_TREES: tuple[Path, ...] = (Path("/usr/share/texlive"), Path("/usr/share/texmf"))
#: Each route: how its result is made from the library ``src`` into ``out`` (a .bib), in the
#: folder ``work``.
TRIP_FORMATS: tuple[str, ...] = ("csl-json", "ris", "hayagriva", "zotero")
ROUTES: tuple[str, ...] = ("bibtex", "biblatex", *TRIP_FORMATS, "fmt", "check --fix")
COUNTS: tuple[str, ...] = ("keys", "entries", "blocks")
_SPACE = re.compile(r"\s+")


def _run(args: Sequence[str]) -> int:
    """Run refbridge's command line in this process (its messages discarded); its status."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            refbridge_main(list(args), standalone_mode=False)
        except SystemExit as stop:
            return int(stop.code or 0)
        except Exception:  # noqa: BLE001 - a route that fails is counted, not fatal
            return 1
    return 0


def _route(route: str, src: Path, work: Path) -> tuple[Path, int]:
    """The .bib that ``route`` makes of ``src`` in ``work``, and the worst exit status."""
    out = work / f"{route.replace(' ', '-')}.bib"
    if route in ("bibtex", "biblatex"):
        return out, _run(["convert", str(src), "--to", route, "-o", str(out), "--jobs", "1"])
    if route in TRIP_FORMATS:
        there = work / f"trip.{route}"
        first = _run(["convert", str(src), "--to", route, "-o", str(there), "--jobs", "1"])
        if not there.exists():
            return out, first or 1
        back = _run(["convert", str(there), "--from", route, "--to", "bibtex", "-o", str(out),
                     "--jobs", "1"])
        return out, max(first, back)
    shutil.copyfile(src, out)
    if route == "fmt":
        return out, _run(["fmt", str(out)])
    return out, _run(["check", "--fix", "--fail-on", "error", str(out)])


@dataclass(slots=True)
class Shape:
    """What a .bib holds: its entry keys in order, and its other blocks and the text between
    blocks, each (what it is, its text white space apart) with the key of the entry after it."""

    keys: list[str] = field(default_factory=list)
    blocks: list[tuple[tuple[str, str], str]] = field(default_factory=list)


def _content(block: Block, source: str) -> str:
    """What a non-entry block says: an ``@comment`` as written (white space apart), an
    ``@string`` its macro's name (BibTeX ignores its case) and value (whichever delimiters),
    an ``@preamble`` its text (white space apart)."""
    if block.kind == "string" and block.fields:
        name, value = block.fields[0].name, block.fields[0].value
        return f"@string{{{name.lower()} = {_SPACE.sub(' ', value).strip()}}}"
    if block.kind == "preamble":
        return f"@preamble{{{_SPACE.sub('', block.text)}}}"
    return _SPACE.sub(" ", source).strip()


def shape_of(path: Path) -> Shape | None:
    """The shape of the .bib at ``path`` (None: it cannot be read as UTF-8 or Latin-1)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    document, _ = read_document(text.replace("\r\n", "\n"), str(path))
    shape = Shape()
    waiting: list[tuple[str, str]] = []
    for unit in document.units:
        between = _SPACE.sub(" ", unit.before).strip()
        if between:
            waiting.append(("text", between))
        if unit.is_entry:
            shape.keys.append(unit.key)
            shape.blocks += [(block, unit.key) for block in waiting]
            waiting = []
        else:
            waiting.append((f"@{unit.block.kind}", _content(unit.block, unit.source)))
    after = _SPACE.sub(" ", document.after).strip()
    shape.blocks += [(block, "") for block in waiting + ([("text", after)] if after else [])]
    return shape


@dataclass(slots=True)
class Loss:
    """What a route's result lost against the original (or that the route failed)."""

    keys: int = 0
    entries: int = 0
    blocks: int = 0
    failed: int | None = None  #: the exit status of a route that wrote nothing readable
    examples: list[str] = field(default_factory=list)


def compare(original: Shape, result: Shape) -> Loss:
    missing = sorted(set(original.keys) - set(result.keys) - {""})  # a key given is no change
    loss = Loss(keys=len(missing), entries=max(0, len(original.keys) - len(result.keys)))
    loss.examples += [f"key {key!r}" for key in missing[:3]]
    kept = Counter(block for block, _ in result.blocks)
    placed = Counter(result.blocks)
    for block, before in original.blocks:
        if kept[block] > 0:
            kept[block] -= 1
            if placed[(block, before)] > 0:
                placed[(block, before)] -= 1
                continue
            what = "moved"
        else:
            what = "changed"
        loss.blocks += 1
        if len(loss.examples) < 6:
            loss.examples.append(f"{block[0]} {what}: {block[1][:60]!r}")
    return loss


def measure_library(library: Path, routes: Sequence[str]) -> dict[str, Loss] | None:
    original = shape_of(library)
    if original is None:
        return None
    losses: dict[str, Loss] = {}
    with tempfile.TemporaryDirectory(prefix="refbridge-keeper-") as tmp:
        work = Path(tmp)
        src = work / "original.bib"
        shutil.copyfile(library, src)
        for route in routes:
            out, status = _route(route, src, work)
            result = shape_of(out) if out.exists() else None
            if result is None:
                losses[route] = Loss(failed=status)
                continue
            losses[route] = compare(original, result)
            if status not in (0, 3, 4):
                losses[route].failed = status
    return losses


def table(name: str, entries: int, losses: dict[str, Loss], examples: bool) -> str:
    lines = [f"{name} ({entries} entries)",
             f"  {'route':12} {'keys':>6} {'entries':>8} {'blocks':>7}  status"]
    for route, loss in losses.items():
        status = "" if loss.failed is None else f"failed ({loss.failed})"
        lines.append(f"  {route:12} {loss.keys:6} {loss.entries:8} {loss.blocks:7}  {status}")
        if examples:
            lines += [f"      {example}" for example in loss.examples]
    return "\n".join(lines)


def libraries(paths: Iterable[Path], dirs: Iterable[Path]) -> list[Path]:
    """The libraries given, every .bib under each of ``dirs``; without either, TeX Live's
    .bib files and JabRef's importer fixtures (``../shared``)."""
    found = [p for p in paths]
    for folder in dirs:
        found += sorted(folder.rglob("*.bib"))
    if found:
        return found
    for tree in (*TEX_LIVE_TREES, JABREF_FIXTURES):
        if tree.is_dir():
            found += sorted(tree.rglob("*.bib"))
    return found


def memory_ratio(bib: Path) -> str:
    """Peak memory of ``fmt --check`` and of ``convert --to bibtex`` (as run by default, on
    every CPU, and on one: ``--jobs 1``) on ``bib``, and the ratios."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "refbridge"]
    mib = 1 << 20
    with tempfile.TemporaryDirectory(prefix="refbridge-keeper-") as tmp:
        check = run_measured([*command, "fmt", "--check", str(bib)], env=env).peak_rss
        lines = [(f"peak memory on {bib.name} ({bib.stat().st_size / mib:.1f} MiB): fmt --check "
                 f"{check / mib:.0f} MiB")]
        for jobs in ("0", "1"):
            convert = run_measured([*command, "convert", str(bib), "--to", "bibtex", "-o",
                                    str(Path(tmp) / "out.bib"), "--jobs", jobs], env=env)
            lines.append(f"  convert --to bibtex --jobs {jobs}: {convert.peak_rss / mib:.0f} "
                         f"MiB; fmt --check / convert = "
                         f"{check / max(convert.peak_rss, 1):.2f} (goal <= 1.5)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("libraries", nargs="*", type=Path)
    parser.add_argument("--dir", action="append", type=Path, default=[],
                        help="measure every .bib under this folder (repeatable)")
    parser.add_argument("--routes", default=",".join(ROUTES))
    parser.add_argument("--examples", action="store_true", help="show what each route lost")
    parser.add_argument("--large", type=float, default=0,
                        help="measure memory on tugboat.bib replicated to this many MB "
                             "(0: on the largest library)")
    parser.add_argument("--no-memory", action="store_true")
    args = parser.parse_args(argv)
    routes = [r.strip() for r in args.routes.split(",") if r.strip()]
    found = libraries(args.libraries, args.dir)
    if not found:
        print("no library: give .bib files or --dir (TeX Live and ../shared were not found)")
        return 2
    totals = {route: Loss() for route in routes}
    measured = 0
    for library in found:
        original = shape_of(library)
        losses = measure_library(library, routes) if original is not None else None
        if original is None or losses is None:
            print(f"{library}: not readable, skipped\n")
            continue
        measured += 1
        print(table(str(library), len(original.keys), losses, args.examples) + "\n")
        for route, loss in losses.items():
            total = totals[route]
            total.keys, total.entries = total.keys + loss.keys, total.entries + loss.entries
            total.blocks += loss.blocks
            total.failed = (total.failed or 0) + (loss.failed is not None)
    print(f"totals over {measured} libraries (status: routes that failed)")
    print(f"  {'route':12} {'keys':>6} {'entries':>8} {'blocks':>7}  failed")
    for route, total in totals.items():
        print(f"  {route:12} {total.keys:6} {total.entries:8} {total.blocks:7}  "
              f"{total.failed or 0}")
    if not args.no_memory:
        print()
        print(memory_ratio(_memory_input(found, args.large)))
    return 0


def _memory_input(found: list[Path], large: float) -> Path:
    """The .bib memory is measured on: ``tugboat.bib`` replicated to ``large`` MB (kept in
    the temporary folder), else the largest library."""
    source = load_bib_source(TUGBOAT) if large else None
    if source is None:
        return max(found, key=lambda path: path.stat().st_size)
    once = len(replicate(source, 1).encode("utf-8"))
    path = Path(tempfile.gettempdir()) / f"refbridge-keeper-{large:g}MB.bib"
    path.write_text(replicate(source, max(1, round(large * 1e6 / once))), encoding="utf-8")
    return path


if __name__ == "__main__":
    sys.exit(main())
