"""How faithfully do refbridge's readers read real exports, measured against Zotero's own
import? ``python benchmarks/real_exports.py DIR --server http://127.0.0.1:1969``

Every file of ``DIR`` (exports that users of Scopus, Web of Science, PubMed, IEEE Xplore, ACM,
Zotero, Mendeley, EndNote, ... committed to their repositories) is read twice: by refbridge,
with the reader it detects, and by Zotero's import translators, posted to a running
``zotero/translation-server`` (``POST /import``, the file's bytes as ``text/plain``). Zotero's
items (its child notes and attachments left out) are the expected records; the comparison is
``readers.py``'s own (the same normal form, pairing, known differences and table), so the
figures are the ones that script gives, on other data.

This script only reads the folder given and queries the server given, which must listen on
the loopback interface: it never builds, starts or fetches anything, and writes nothing but
the ``--json`` file asked for. A file Zotero cannot import (the server answers with an
error) is listed apart and not counted. ``real_exports_known.json`` beside this file lists
the differences where Zotero's import is wrong or keeps less than refbridge, each with its
reason; they are reported apart, as in ``readers.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from readers import (
    DETECT,
    Case,
    CaseResult,
    KnownDifference,
    as_json,
    detected_reader,
    load_known,
    normal_of_zotero_item,
    print_report,
    run_case,
    write_json,
)

KNOWN_FILE = Path(__file__).with_name("real_exports_known.json")
#: The hosts a server may be on: this machine only.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
#: Zotero item types that are another item's children, not records.
CHILD_TYPES = frozenset({"note", "attachment", "annotation"})
#: Seconds to wait for Zotero's import of one file (a 1,500-record RIS takes about 25).
TIMEOUT = 300.0


@dataclass(frozen=True, slots=True)
class Refused:
    """A file Zotero's import does not take: the server's status and answer."""

    name: str
    status: int
    answer: str


def loopback_url(url: str) -> str:
    """``url`` without a trailing slash; an error unless it is http(s) on this machine."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.hostname not in LOOPBACK:
        raise ValueError(f"the server must be http(s) on 127.0.0.1, not {url!r}")
    return url.rstrip("/")


def zotero_import(server: str, data: bytes) -> list[dict[str, Any]]:
    """Zotero's items for the bytes of one file (``urllib.error.HTTPError`` when it refuses)."""
    request = urllib.request.Request(
        f"{server}/import", data=data, method="POST",
        headers={"Content-Type": "text/plain; charset=utf-8"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        items = json.loads(answer.read().decode("utf-8"))
    return [item for item in items if isinstance(item, Mapping)
            and item.get("itemType") not in CHILD_TYPES and "parentItem" not in item]


def export_files(folder: Path) -> Iterator[Path]:
    """The files of ``folder`` and its subfolders, in name order, hidden ones left out."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not any(part.startswith(".")
                                      for part in path.relative_to(folder).parts):
            yield path


def export_case(path: Path, folder: Path, items: Sequence[Mapping[str, Any]]) -> Case:
    """One file as a case: Zotero's items expected, read with the reader refbridge detects."""
    name = str(path.relative_to(folder))
    reader = detected_reader(path)
    return Case("real", name, reader if reader is not None else DETECT,
                reader or "unknown", [normal_of_zotero_item(item) for item in items],
                path=path, expected_count=len(items))


def run(folder: Path, server: str, known: Sequence[KnownDifference]
        ) -> tuple[list[CaseResult], list[Refused]]:
    """Every file of ``folder`` read by refbridge and by the server's Zotero, compared."""
    results: list[CaseResult] = []
    refused: list[Refused] = []
    for path in export_files(folder):
        try:
            items = zotero_import(server, path.read_bytes())
        except urllib.error.HTTPError as error:
            answer = error.read().decode("utf-8", "replace").strip()
            refused.append(Refused(str(path.relative_to(folder)), error.code, answer[:200]))
            continue
        results.append(run_case(export_case(path, folder, items), known))
    return results, refused


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, metavar="DIR", help="the folder of exports")
    parser.add_argument("--server", default="http://127.0.0.1:1969",
                        help="a running translation-server on this machine (default: %(default)s)")
    parser.add_argument("--known", type=Path, default=KNOWN_FILE,
                        help="the known differences (default: %(default)s)")
    parser.add_argument("--verbose", action="store_true",
                        help="every difference in full, known ones too")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write all figures to FILE")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        parser.error(f"no folder {args.folder}")
    try:
        server = loopback_url(args.server)
        results, refused = run(args.folder, server, load_known(args.known))
    except ValueError as error:
        parser.error(str(error))
    except urllib.error.URLError as error:
        parser.error(f"no translation-server answers at {args.server}: {error.reason}")
    print_report(results, args.verbose, (
        f"{item.name}: Zotero cannot import it ({item.status}: {item.answer})"
        for item in refused))
    if args.json:
        write_json(args.json, {**as_json(results), "refused": [asdict(r) for r in refused]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
