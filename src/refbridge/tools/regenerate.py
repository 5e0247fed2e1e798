"""Regenerates every generated table and document of the repository, each from its source:

    python -m refbridge.tools.regenerate            # write each one whose source is here
    python -m refbridge.tools.regenerate --check    # write nothing; exit 1 naming stale ones

Run it from the repository's root after changing a format's registration or mapping tables, or
for a new Zotero schema, pylatexenc or biblatex. A file whose source is not on this machine
(``../shared``, TeX Live's biblatex) is left as it is, and said so. ``tests/test_generated.py``
checks that each committed file is what this writes. This module must never be imported by
refbridge at run time, and never writes outside the files of ``GENERATED``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


class Unavailable(Exception):
    """The source of a generated file is not on this machine (the message says which)."""


@dataclass(frozen=True, slots=True)
class Generated:
    """A file of the repository written from a source by ``make`` (given the repository's root).
    ``version`` finds, in the file's text, the version of the source it was written from:
    the committed file is compared only with what the same version gives."""

    path: str  #: relative to the repository's root
    make: Callable[[Path], str]
    version: re.Pattern[str] | None = None


def field_coverage(root: Path) -> str:
    from refbridge.coverage import declared_coverages, markdown

    return markdown(declared_coverages())


def fixed_macros(root: Path) -> str:
    from refbridge.latex.pylatexenc_tables import table_source

    return table_source()


def zotero_tables(root: Path) -> str:
    from refbridge.formats.zotero.tables_build import build, render

    schema = root.parent / "shared" / "schemas" / "zotero-schema.json"
    if not schema.is_file():
        raise Unavailable(f"Zotero's schema is not at {schema}")
    return render(build(json.loads(schema.read_text(encoding="utf-8"))))


def biblatex_datamodel(root: Path) -> str:
    from refbridge.check.biblatex_datamodel_build import source

    kpsewhich = shutil.which("kpsewhich")
    found = subprocess.run([kpsewhich, "blx-dm.def"], capture_output=True, text=True,
                           check=False).stdout.strip() if kpsewhich else ""
    if not found:
        raise Unavailable("biblatex's blx-dm.def is not installed (kpsewhich finds none)")
    return source(Path(found))


#: The entry-point groups of ``pyproject.toml`` that the catalogue's registrations give.
_ENTRY_POINT_GROUP = re.compile(
    r'^\[project\.entry-points\."(?P<group>refbridge\.(?:readers|writers))"\]\n(?:.+\n)*',
    re.MULTILINE)


def pyproject(root: Path) -> str:
    """``pyproject.toml`` with its reader and writer entry points those of ``FORMATS``."""
    from refbridge.formats.catalogue import READERS, WRITERS
    from refbridge.registry import READERS_GROUP

    def entry_points(match: re.Match[str]) -> str:
        group = match.group("group")
        targets = {name: entry.target for name, entry in
                   (READERS if group == READERS_GROUP else WRITERS).items()}
        return f'[project.entry-points."{group}"]\n' + "".join(
            f'{name} = "{target}"\n' for name, target in targets.items())

    return _ENTRY_POINT_GROUP.sub(entry_points,
                                  (root / "pyproject.toml").read_text(encoding="utf-8"))


GENERATED: tuple[Generated, ...] = (
    Generated("pyproject.toml", pyproject),
    Generated("docs/field-coverage.md", field_coverage),
    Generated("src/refbridge/latex/fixed_macros.py", fixed_macros,
              re.compile(r"as pylatexenc\n(\S+) says")),
    Generated("src/refbridge/formats/zotero/tables.py", zotero_tables,
              re.compile(r"^SCHEMA_VERSION: int = (\d+)$", re.MULTILINE)),
    Generated("src/refbridge/check/biblatex_datamodel.py", biblatex_datamodel,
              re.compile(r"^BIBLATEX_VERSION = '([^']+)'$", re.MULTILINE)),
)

#: The repository's root: where ``src/refbridge`` is.
ROOT = Path(__file__).resolve().parents[3]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m refbridge.tools.regenerate",
                                     description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a generated file is stale")
    arguments = parser.parse_args(argv)
    if not (ROOT / "pyproject.toml").is_file():
        parser.error(f"no repository at {ROOT}: run it from a checkout installed with "
                     "`pip install -e .`")
    stale = []
    for generated in GENERATED:
        path = ROOT / generated.path
        try:
            text = generated.make(ROOT)
        except Unavailable as missing:
            print(f"regenerate: {generated.path}: left as it is: {missing}", file=sys.stderr)
            continue
        if path.read_text(encoding="utf-8") == text:
            continue
        stale.append(generated.path)
        if not arguments.check:
            path.write_text(text, encoding="utf-8")
        print(f"regenerate: {generated.path}: {'stale' if arguments.check else 'written'}",
              file=sys.stderr)
    return 1 if arguments.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
