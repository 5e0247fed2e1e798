"""refbridge's duplicate finding (``refbridge dedupe``: ``dedupe.matching.same_work``)
measured against the cases of JabRef's own test of its duplicate check
(``DuplicateCheckTest.java``), read at run time from a JabRef checkout.

    .venv/bin/python benchmarks/dedupe_fixtures.py --jabref JABREF_DIR [--show N]

Each ``assertTrue`` / ``assertFalse(duplicateChecker.isDuplicate(one, two, ...))`` of the test
file is evaluated with the reader of ``key_fixtures`` (entries built with ``new
BibEntry(type).withField(...)``, the file's ``getX()`` helpers and ``setUp`` fields, a
``setField`` on a local entry), each entry written as a .bib entry and read as refbridge reads
one. Printed: cases read, cases where refbridge's verdict is JabRef's (e.g. ``30/36``), and,
with ``--show``, the others. Some differences are refbridge's rules on purpose (a book seven
years apart is two editions; an entry with only an author is no work): they are listed, not
hidden. Nothing of JabRef's is copied into this project.
"""

from __future__ import annotations

import argparse
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from key_fixtures import Expression, Unknown, _call, _split, evaluate, java_source, methods

from refbridge.dedupe.matching import Profile, same_work
from refbridge.errors import Diagnostics
from refbridge.pipeline import read_stream

TEST_PATH = "jablib/src/test/java/org/jabref/logic/database/DuplicateCheckTest.java"


@dataclass(frozen=True)
class Pair:
    """What ``isDuplicate(one, two, mode)`` stands for."""

    one: dict[str, str]
    two: dict[str, str]


class EntryExpression(Expression):
    """The key reader's expressions, with typed entries, the file's helpers and
    ``isDuplicate``."""

    helpers: ClassVar[dict[str, str]] = {}

    def call(self, name: str, arguments: list[Any], target: Any = None) -> Any:
        if name == "BibEntry":
            first = arguments[0] if arguments else "misc"
            return dict(first) if isinstance(first, dict) else {"@type": first}
        if name == "isDuplicate":
            return Pair(arguments[0], arguments[1])
        if name in self.helpers:
            return evaluate(self.helpers[name], self.names, EntryExpression)
        return _call(name, arguments, target)


_HELPER = re.compile(r"static BibEntry (\w+)\(\)\s*\{\s*return (.*?);\s*\}", re.DOTALL)
_ASSIGN = re.compile(r"^\s*(?:[\w<>]+\s+)*?(\w+)\s*=\s*(.*)$", re.DOTALL)
_SET = re.compile(r"^\s*(\w+)\.setField\((.*)\)\s*$", re.DOTALL)


@dataclass(frozen=True)
class Case:
    where: str
    one: dict[str, str]
    two: dict[str, str]
    duplicate: bool


def cases(source: str, unread: list[str]) -> Iterator[Case]:
    EntryExpression.helpers = {match.group(1): match.group(2)
                               for match in _HELPER.finditer(source)}
    tests, _ = methods(source)
    fields: dict[str, Any] = {"duplicateChecker": None, "BibDatabaseMode": None}
    for method in tests:
        if method.name == "setUp":
            for statement in method.body.split(";"):
                assigned = _ASSIGN.match(statement)
                if assigned:
                    try:
                        fields[assigned.group(1)] = evaluate(assigned.group(2), fields,
                                                             EntryExpression)
                    except Unknown:
                        continue
    for method in tests:
        if "@Test" not in method.annotations or "isDuplicate" not in method.body:
            continue
        local = dict(fields)
        for number, statement in enumerate(method.body.split(";"), 1):
            statement = statement.strip()
            where = f"{method.name}#{number}"
            try:
                verdict = re.match(r"assert(True|False)\((.*)\)$", statement, re.DOTALL)
                if verdict:
                    pair = evaluate(verdict.group(2), local, EntryExpression)
                    if isinstance(pair, Pair):
                        yield Case(where, pair.one, pair.two, verdict.group(1) == "True")
                    continue
                changed = _SET.match(statement)
                if changed:
                    name, value = (evaluate(part, local, EntryExpression)
                                   for part in _split(changed.group(2)))
                    local[changed.group(1)] = {**local[changed.group(1)], name: value}
                    continue
                assigned = _ASSIGN.match(statement)
                if assigned:
                    local[assigned.group(1)] = evaluate(assigned.group(2), local,
                                                        EntryExpression)
            except (Unknown, TypeError, KeyError, IndexError, ValueError) as problem:
                if "isDuplicate" in statement:
                    unread.append(f"{where}: {problem}")


def bib(entry: dict[str, str], key: str) -> str:
    fields = ", ".join(f"{name} = {{{value}}}" for name, value in entry.items()
                       if name != "@type")
    return f"@{entry.get('@type', 'misc')}{{{key}, {fields}}}\n"


def same(one: dict[str, str], two: dict[str, str]) -> bool:
    text = bib(one, "one") + bib(two, "two")
    first, second = read_stream(io.StringIO(text), text, "pair.bib", Diagnostics())
    return same_work(Profile(first), Profile(second)) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jabref", required=True, metavar="JABREF_DIR")
    parser.add_argument("--show", type=int, default=0, metavar="N",
                        help="print the first N cases where refbridge decides otherwise")
    arguments = parser.parse_args()
    unread: list[str] = []
    found = list(cases(java_source(arguments.jabref, TEST_PATH), unread))
    differ = [case for case in found if same(case.one, case.two) is not case.duplicate]
    print(f"JabRef's duplicate check cases read: {len(found)} ({len(unread)} not read)")
    print(f"refbridge's verdict is JabRef's: {len(found) - len(differ)}/{len(found)}")
    for case in differ[:arguments.show]:
        print(f"  differs: {case.where}: JabRef says {'one work' if case.duplicate else 'two'}"
              f": {bib(case.one, 'one').strip()} | {bib(case.two, 'two').strip()}")
    for line in unread[:arguments.show]:
        print("  not read: " + line)


if __name__ == "__main__":
    main()
