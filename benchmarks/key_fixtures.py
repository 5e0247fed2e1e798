"""refbridge's key patterns measured against the test fixtures of JabRef and Better BibTeX,
read at run time from their repositories.

    .venv/bin/python benchmarks/key_fixtures.py [--jabref JABREF_DIR] [--bbt BBT_DIR] [--show N]

Each ``*_DIR`` is a clone of the project, or a bare mirror of it (read with ``git show
HEAD:...``). Nothing of theirs is copied into this project: the files are read where they are.

``--jabref``: refbridge's ``jabref:`` key patterns against the cases of JabRef's own test of its
key generator (``CitationKeyGeneratorTest.java``). JabRef's cases are Java: each
``assertEquals(expected, ... generateKey(entry, pattern) ...)`` of the test file is evaluated by
a small reader of the few expressions the file uses (string constants,
``createABibEntryAuthor``, ``new BibEntry().withField(...)``, ``BibtexParser.singleFromString``,
``formatted``, ``length()``), with the rows of its ``@CsvSource`` and ``@MethodSource`` providers
bound to the test's parameters. The entry is read as refbridge reads a .bib and its key made
with ``compile_pattern("jabref:" + pattern)``. Printed: cases read, cases refbridge agrees with
(e.g. ``155/160``), the cases it could not read (an expression it does not know) and, with
``--show``, the disagreements. A case whose entry is in a database with others (its crossref
parent) is read as a .bib of those entries, all ``@misc`` as JabRef's new entries are.

``--bbt``: Better BibTeX's default key formula (``auth.lower + shorttitle(3,3) + year``, and its
legacy spelling ``[auth:lower][shorttitle3_3][year]``) against the keys of Better BibTeX's
export fixtures (``test/fixtures/export/NAME.json``, a library, beside ``NAME.biblatex`` or
``NAME.bibtex``, what Better BibTeX exports of it) whose preferences keep the default formula
(no ``citekeyFormat``, or one of its spellings) and no other preference that changes keys. The
library is read as refbridge reads a Better BibTeX JSON; its items without a key of their own
(a key in the library is kept by both, so it says nothing of the formula) get refbridge's keys,
made unique among the library's keys as refbridge does, and each is looked for among the keys of
the export that are not the library's own. Printed: libraries and items read, items whose key
Better BibTeX's export has (e.g. ``80/90``) per spelling and, with ``--show``, the others.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refbridge.citekeys import assign_keys, compile_pattern
from refbridge.errors import Diagnostics
from refbridge.pipeline import read_stream

TEST_PATH = ("jablib/src/test/java/org/jabref/logic/citationkeypattern/"
             "CitationKeyGeneratorTest.java")


def java_source(jabref: str, path: str = TEST_PATH) -> str:
    """A test file from a checkout (its work tree) or a bare mirror (``HEAD``)."""
    text = repository_text(jabref, path)
    if text is None:
        raise SystemExit(f"{jabref}: no {path}")
    return text


def repository_text(repository: str, path: str) -> str | None:
    """A file of a checkout (its work tree) or a bare mirror (``HEAD``); None when it is not
    there (or its content is not in the mirror)."""
    tree = Path(repository) / path
    if tree.is_file():
        return tree.read_text(encoding="utf-8")
    if (Path(repository) / path.split("/")[0]).exists():
        return None
    done = subprocess.run(["git", "--git-dir", repository, "show", f"HEAD:{path}"],
                          capture_output=True, check=False)
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


def repository_files(repository: str, folder: str) -> list[str]:
    """The paths of the files in ``folder`` of a checkout or a bare mirror."""
    tree = Path(repository) / folder
    if tree.is_dir():
        return sorted(str(path.relative_to(repository)) for path in tree.rglob("*")
                      if path.is_file())
    return subprocess.run(["git", "--git-dir", repository, "ls-tree", "-r", "--name-only",
                           "HEAD", folder], capture_output=True, text=True,
                          check=True).stdout.splitlines()


class Unknown(ValueError):
    """An expression this reader does not evaluate."""


_TOKEN = re.compile(r'''\s+|//[^\n]*|/\*.*?\*/|(?P<block>"""\n.*?""")|(?P<string>"(?:\\.|[^"\\])*")
    |(?P<char>'(?:\\.|[^'\\])')|(?P<number>\d+)|(?P<name>[A-Za-z_]\w*)|(?P<op>[().,<>])''',
                    re.DOTALL | re.VERBOSE)
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda match: _ESCAPES.get(match.group(1), match.group(0)), text)


def _text_block(text: str) -> str:
    lines = text[4:-3].split("\n")
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()),
                 default=0)
    return _unescape("\n".join(line[indent:] for line in lines))


def tokens(text: str) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise Unknown(f"cannot read {text[position:position + 20]!r}")
        position = match.end()
        kind = match.lastgroup
        if kind == "block":
            found.append(("value", _text_block(match.group())))
        elif kind in ("string", "char"):
            found.append(("value", _unescape(match.group()[1:-1])))
        elif kind == "number":
            found.append(("value", int(match.group())))
        elif kind in ("name", "op"):
            found.append((kind, match.group()))
    return found


@dataclass(frozen=True)
class Generated:
    """What ``generateKey(entry, pattern, ...)`` stands for."""

    entry: Any
    pattern: str
    #: ``generateKey(...).length()``: the test asserts the key's length only
    length: bool = False
    #: the other entries of the database the key is made in (an entry's crossref)
    database: tuple[Any, ...] = ()


#: Where ``withCitationKey`` keeps an entry's key among its fields.
KEY = "@key"


def _call(name: str, arguments: list[Any], target: Any = None) -> Any:
    """The few methods the test file calls, evaluated."""
    if name == "createABibEntryAuthor":
        return {"author": arguments[0]}
    if name == "withField":
        return {**target, arguments[0]: arguments[1]}
    if name == "withCitationKey":
        return {**target, KEY: arguments[0]}
    if name in ("orElse", "get", "orElseThrow"):
        return target
    if name == "insertEntry":
        target.append(arguments[0])
        return None
    if name == "setField":  # in place: the entry may already be in a database
        target[arguments[0]] = arguments[1]
        return None
    if name == "singleFromString":
        return arguments[0]
    if name == "formatted":
        return target % tuple(arguments)
    if name == "format":
        return arguments[0] % tuple(arguments[1:])
    if name == "cleanKey":
        return arguments[0]
    if name == "generateKey":
        others = arguments[2] if len(arguments) > 2 and isinstance(arguments[2], list) else []
        return Generated(arguments[0], arguments[1],
                         database=tuple(entry for entry in others if entry is not arguments[0]))
    if name == "length" and isinstance(target, Generated):
        return Generated(target.entry, target.pattern, length=True, database=target.database)
    if name in ("BibEntry", "BibDatabase"):
        return {} if name == "BibEntry" else []
    raise Unknown(name)


class Expression:
    """A recursive reader of one Java expression over ``tokens``."""

    def __init__(self, found: list[tuple[str, Any]], names: dict[str, Any]) -> None:
        self.found, self.names, self.at = found, names, 0

    def call(self, name: str, arguments: list[Any], target: Any = None) -> Any:
        return _call(name, arguments, target)

    def peek(self) -> tuple[str, Any]:
        return self.found[self.at] if self.at < len(self.found) else ("end", None)

    def take(self, value: str) -> None:
        if self.peek()[1] != value:
            raise Unknown(f"expected {value}")
        self.at += 1

    def arguments(self) -> list[Any]:
        self.take("(")
        values: list[Any] = []
        while self.peek()[1] != ")":
            values.append(self.value())
            if self.peek()[1] == ",":
                self.at += 1
        self.take(")")
        return values

    def value(self) -> Any:
        kind, token = self.peek()
        self.at += 1
        if kind == "value":
            result = token
        elif token == "new":
            name = self.peek()[1]
            self.at += 1
            if self.peek()[1] == "<":
                self.at += 2  # new X<>()
            result = self.call(name, self.arguments())
        elif kind == "name":
            if self.peek()[1] == "(":
                result = self.call(token, self.arguments())
            elif token in ("StandardField", "InternalField", "StandardEntryType"):
                self.take(".")
                result = str(self.peek()[1]).lower()
                self.at += 1
            elif token in self.names:
                result = self.names[token]
            elif token in ("null", "importFormatPreferences", "database",
                           "DEFAULT_UNWANTED_CHARACTERS", "BibtexParser", "CitationKeyGenerator",
                           "String", "CitationKeyPatternPreferences"):
                result = None
            else:
                raise Unknown(token)
        else:
            raise Unknown(str(token))
        while self.peek()[1] == ".":
            self.at += 1
            name = self.peek()[1]
            self.at += 1
            if self.peek()[1] != "(":
                result = None  # a constant of another class (BibDatabaseMode.BIBTEX ...)
                continue
            result = self.call(str(name), self.arguments(), result)
        return result


def evaluate(text: str, names: dict[str, Any], reader_type: type[Expression] = Expression
             ) -> Any:
    """The value of Java expression ``text`` with ``names`` (constants, parameters, locals)."""
    reader = reader_type(tokens(text), names)
    result = reader.value()
    if reader.peek()[0] != "end":
        raise Unknown("more than one expression")
    return result


def _closing(text: str, start: int, opening: str = "(", closing: str = ")") -> int:
    """The offset after the bracket that closes the one at ``start`` (strings skipped)."""
    depth = 0
    for match in re.finditer(r'"""\n.*?"""|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'|.', text[start:],
                             re.DOTALL):
        token = match.group()
        if token == opening:
            depth += 1
        elif token == closing:
            depth -= 1
            if depth == 0:
                return start + match.end()
    raise Unknown("unbalanced")


def _split(text: str) -> list[str]:
    """Top-level comma-separated parts of an argument list's text."""
    parts, depth, current = [], 0, ""
    for match in re.finditer(r'"""\n.*?"""|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'|.', text,
                             re.DOTALL):
        token = match.group()
        if token in "([{" and len(token) == 1:
            depth += 1
        elif token in ")]}" and len(token) == 1:
            depth -= 1
        if token == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += token
    if current.strip():
        parts.append(current)
    return [part.strip() for part in parts]


_CONSTANT = re.compile(r"static final (?:String|BibEntry) (\w+) =\s*(.*?);\n", re.DOTALL)
_METHOD = re.compile(r"((?:\s*@\w+(?:\((?:[^()]|\([^()]*\))*?\))?)*)\s*(?:\w+\s+)*?(void|Stream"
                     r"<Arguments>)\s+(\w+)\(([^)]*)\)\s*(?:throws [\w, ]+)?\{", re.DOTALL)


@dataclass(frozen=True)
class Method:
    annotations: str
    name: str
    parameters: list[str]
    body: str


def methods(source: str) -> tuple[list[Method], dict[str, Method]]:
    """The file's test methods, and its providers of arguments by name."""
    tests, providers = [], {}
    for match in _METHOD.finditer(source):
        end = _closing(source, match.end() - 1, "{", "}")
        parameters = [part.split()[-1] for part in _split(match.group(4))]
        method = Method(match.group(1), match.group(3), parameters, source[match.end():end - 1])
        if match.group(2) == "void":
            tests.append(method)
        else:
            providers[method.name] = method
    return tests, providers


def _rows(method: Method, providers: dict[str, Method], names: dict[str, Any]
          ) -> Iterator[dict[str, Any]]:
    """Each set of parameter values the test runs with (one, without parameters)."""
    if not method.parameters:
        yield {}
        return
    provider = re.search(r'@MethodSource(?:\("?(\w*)"?\))?', method.annotations)
    if provider:
        body = providers[provider.group(1) or method.name].body
        for match in re.finditer(r"Arguments\.of\(", body):
            end = _closing(body, match.end() - 1)
            values = [evaluate(part, names) for part in _split(body[match.end():end - 1])]
            yield dict(zip(method.parameters, values, strict=True))
        return
    block = re.search(r'@CsvSource\((.*?)"""\n(.*?)"""', method.annotations, re.DOTALL)
    if block:
        quote = "'" if "quoteCharacter" not in block.group(1) else '"'
        lines = [line for line in _text_block('"""\n' + block.group(2) + '"""').splitlines()
                 if line.strip() and not line.lstrip().startswith("#")]
        for row in csv.reader(lines, quotechar=quote, skipinitialspace=True):
            cells = [cell.strip() for cell in row if cell.strip() or len(row) > 1][
                :len(method.parameters)]
            yield dict(zip(method.parameters, cells, strict=True))
        return
    listed = re.search(r"@CsvSource\(\{(.*?)\}\)", method.annotations, re.DOTALL)
    if listed:
        for line in tokens(listed.group(1)):
            if line[0] == "value":
                row = next(csv.reader([line[1]], quotechar="'", skipinitialspace=True))
                yield dict(zip(method.parameters, [cell.strip() for cell in row], strict=True))
        return
    raise Unknown(f"{method.name}: parameters without a provider this reader knows")


_LOCAL = re.compile(r"^\s*(?:final\s+)?[\w<>]+\s+(\w+)\s*=\s*(.*?);\s*$", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class Case:
    where: str
    entry: Any
    pattern: str
    expected: str
    length: bool = False
    database: tuple[Any, ...] = ()


def cases(source: str, unread: list[str]) -> Iterator[Case]:
    names: dict[str, Any] = {}
    for match in _CONSTANT.finditer(source):
        try:
            names[match.group(1)] = evaluate(match.group(2), names)
        except Unknown:
            continue
    tests, providers = methods(source)
    for method in tests:
        if "@Test" not in method.annotations and "@ParameterizedTest" not in method.annotations:
            continue
        if "generateKey" not in method.body:
            continue
        try:
            rows = list(_rows(method, providers, names))
        except (Unknown, ValueError) as problem:
            unread.append(f"{method.name}: {problem}")
            continue
        for number, row in enumerate(rows, 1):
            local = {**names, **row}
            statements = method.body.split(";")
            for statement in statements:
                statement = statement.strip()
                where = f"{method.name}#{number}"
                try:
                    if statement.startswith("assertEquals("):
                        parts = _split(statement[len("assertEquals("):-1])
                        generated = evaluate(parts[1], local)
                        if isinstance(generated, Generated):
                            yield Case(where, generated.entry, generated.pattern,
                                       evaluate(parts[0], local), generated.length,
                                       generated.database)
                        continue
                    assigned = _LOCAL.match(statement + ";")
                    if assigned:
                        local[assigned.group(1)] = evaluate(assigned.group(2), local)
                    elif re.match(r"\w+\.(insertEntry|setField)\(", statement):
                        evaluate(statement, local)
                except (Unknown, TypeError, IndexError, ValueError) as problem:
                    if statement.startswith("assertEquals("):
                        unread.append(f"{where}: {problem}")


def _entry(entry: dict[str, str], kind: str, key: str) -> str:
    fields = ", ".join(f"{name} = {{{value}}}" for name, value in entry.items() if name != KEY)
    return f"@{kind}{{{entry.get(KEY, key)}, {fields or 'note = {none}'}}}"


def _bib(entry: Any, database: tuple[Any, ...] = ()) -> str:
    """The case's entry as a .bib (first), with the other entries of its database: all of
    JabRef's type of a new entry, ``misc``, so that a crossref gives each field as it is."""
    if isinstance(entry, str):
        return entry
    if not database:
        return _entry(entry, "article", "k")
    return "\n".join([_entry(entry, "misc", "k"),
                      *(_entry(other, "misc", f"other{number}")
                        for number, other in enumerate(database))])


def key_of(entry: Any, pattern: str, database: tuple[Any, ...] = ()) -> str:
    text = _bib(entry, database)
    record = next(read_stream(io.StringIO(text), text, "case.bib", Diagnostics()))
    return compile_pattern("jabref:" + pattern)(record)


BBT_EXPORTS = "test/fixtures/export"
#: Better BibTeX's default formula, its legacy bracket spelling read with Better BibTeX's
#: meaning of its fields (``bbt:``), and the same read as refbridge's own pattern.
BBT_FORMULAS = ("auth.lower + shorttitle(3,3) + year", "bbt:[auth:lower][shorttitle3_3][year]",
                "[auth:lower][shorttitle3_3][year]")
#: How Better BibTeX's fixtures spell the default formula (white space left out).
BBT_DEFAULT_SPELLINGS = frozenset({
    "auth.lower+shorttitle(3,3)+year", "[auth:lower][shorttitle3_3][year]",
    'auth(n=0,m=1,creator="*",initials=false).fold.lower+shorttitle(3,3)+year'})
#: Better BibTeX's preferences that change the keys its formula makes (``keyScope`` only
#: says among which libraries a key is unique: the fixture is one).
BBT_KEY_PREFERENCES = frozenset({"citekeyFold", "skipWords", "citekeyUnsafeChars",
                                 "citekeyCaseInsensitive", "japanese", "kuroshiro", "jieba"})


@dataclass
class Library:
    """One of Better BibTeX's export fixtures that keeps the default formula."""

    name: str
    records: list[Any]
    #: the keys of Better BibTeX's export of it
    exported: list[str]


def bbt_libraries(bbt: str, skipped: list[str]) -> Iterator[Library]:
    files = set(repository_files(bbt, BBT_EXPORTS))
    for path in sorted(files):
        if not path.endswith(".json") or path.endswith(".csl.json"):
            continue
        stem = path[:-len(".json")]
        export = next((f"{stem}{suffix}" for suffix in (".biblatex", ".bibtex")
                       if f"{stem}{suffix}" in files), None)
        text = repository_text(bbt, path)
        if export is None or text is None:
            continue
        try:
            preferences = json.loads(text).get("config", {}).get("preferences", {})
        except (ValueError, AttributeError):
            continue
        formula = re.sub(r"\s+", "", preferences.get("citekeyFormat", BBT_FORMULAS[0]))
        name = Path(stem).name
        if formula not in BBT_DEFAULT_SPELLINGS:
            continue
        if BBT_KEY_PREFERENCES & set(preferences):
            skipped.append(f"{name}: sets {', '.join(sorted(BBT_KEY_PREFERENCES & set(preferences)))}")
            continue
        exported_text = repository_text(bbt, export)
        if exported_text is None:
            continue
        try:
            records = list(read_stream(io.StringIO(text), text, "library.json", Diagnostics()))
            exported = [record.citation_key or "" for record in read_stream(
                io.StringIO(exported_text), exported_text, "export.bib", Diagnostics())]
        except Exception as problem:  # noqa: BLE001 (a fixture that cannot be read is listed)
            skipped.append(f"{name}: {type(problem).__name__}: {problem}")
            continue
        yield Library(name, records, exported)


def bbt_agreement(libraries: list[Library], formula: str) -> tuple[int, int, list[str]]:
    """Items that need a key; those whose key Better BibTeX's export has; the others."""
    total, agree, differ = 0, 0, []
    for library in libraries:
        own = [record.citation_key for record in library.records if record.citation_key]
        left = Counter(library.exported) - Counter(own)
        expected_left = Counter(left)
        made = [keyed.citation_key for record, keyed in
                zip(library.records, assign_keys(library.records, formula))
                if not record.citation_key]
        missing = []
        for key in made:
            total += 1
            if left[key] > 0:
                left[key] -= 1
                agree += 1
            else:
                missing.append(key)
        if missing:
            others = sorted((left & expected_left).elements())
            differ.append(f"{library.name}: refbridge {missing}, Better BibTeX {others}")
    return total, agree, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jabref", metavar="JABREF_DIR")
    parser.add_argument("--bbt", metavar="BBT_DIR")
    parser.add_argument("--show", type=int, default=0, metavar="N",
                        help="print the first N cases where refbridge gives another key")
    arguments = parser.parse_args()
    if not arguments.jabref and not arguments.bbt:
        parser.error("give --jabref JABREF_DIR, --bbt BBT_DIR or both")
    if arguments.jabref:
        jabref(arguments.jabref, arguments.show)
    if arguments.bbt:
        skipped: list[str] = []
        libraries = list(bbt_libraries(arguments.bbt, skipped))
        items = sum(len(library.records) for library in libraries)
        print(f"Better BibTeX's export fixtures with the default formula read: "
              f"{len(libraries)} libraries, {items} items ({len(skipped)} left out)")
        for formula in BBT_FORMULAS:
            total, agree, differ = bbt_agreement(libraries, formula)
            print(f"refbridge gives Better BibTeX's key ({formula}): {agree}/{total}")
            for line in differ[:arguments.show]:
                print("  differs: " + line)
        for line in skipped[:arguments.show]:
            print("  left out: " + line)


def jabref(directory: str, show: int) -> None:
    unread: list[str] = []
    found = list(cases(java_source(directory), unread))
    differ = []
    for case in found:
        try:
            key = key_of(case.entry, case.pattern, case.database)
        except Exception as problem:  # noqa: BLE001 (a case that fails is counted, not fatal)
            key = f"<{type(problem).__name__}: {problem}>"
        if (len(key) if case.length else key) != case.expected:
            differ.append(f"{case.where}: {case.pattern} on "
                          f"{_bib(case.entry, case.database)!r}: JabRef {case.expected!r}, "
                          f"refbridge {key!r}")
    print(f"JabRef's key generator cases read: {len(found)} ({len(unread)} not read)")
    print(f"refbridge gives JabRef's key: {len(found) - len(differ)}/{len(found)}")
    for line in differ[:show]:
        print("  differs: " + line)
    for line in unread[:show]:
        print("  not read: " + line)


if __name__ == "__main__":
    main()
