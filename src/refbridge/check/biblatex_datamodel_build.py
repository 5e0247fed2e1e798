"""Builds ``refbridge.check.biblatex_datamodel``, the table of biblatex's default data model,
from biblatex's own ``blx-dm.def`` (LPPL; only facts are taken from it, the file itself is
never copied into the project); ``python -m refbridge.tools.regenerate`` writes it from the
``blx-dm.def`` ``kpsewhich`` finds. The version is read from ``biblatex.sty`` beside the file.
Development time only: this module must never be imported at run time.
"""

from __future__ import annotations

import re
from pathlib import Path

_COMMAND = re.compile(r"\\(DeclareDatamodel(?:Entrytypes|Fields|Entryfields|Constraints))"
                      r"(?:\[([^\]]*)\])?\{")
_VERSION = re.compile(r"\\def\\abx@version\{([^}]+)\}")
_CONSTRAINT = re.compile(r"\\constraint\[([^\]]*)\]\{")
_FIELD = re.compile(r"\\constraintfield\{([^}]+)\}")
_GROUP = re.compile(r"\\constraintfields(or|xor)\{")
_PATTERN = re.compile(r"pattern=\\regexp\{([^}]*)\}")


def _group(text: str, start: int) -> tuple[str, int]:
    """The text of the brace group opening just before ``start``, and the offset after it."""
    depth = 1
    at = start
    while depth:
        char = text[at]
        depth += {"{": 1, "}": -1}.get(char, 0)
        at += 1
    return text[start:at - 1], at


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _options(text: str | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for part in _names(re.sub(r"\\regexp\{[^}]*\}", "", text or "")):
        name, _, value = part.partition("=")
        options[name.strip()] = value.strip() or "true"
    return options


def _mandatory(body: str) -> list[tuple[str, tuple[str, ...]]]:
    """The requirements of one mandatory constraint: ("all", (field,)), ("or", fields...)."""
    found: list[tuple[str, tuple[str, ...]]] = []
    at = 0
    while True:
        group = _GROUP.search(body, at)
        field = _FIELD.search(body, at)
        if field is None:
            return found
        if group is not None and group.start() < field.start():
            inner, at = _group(body, group.end())
            found.append((group.group(1), tuple(_FIELD.findall(inner))))
        else:
            found.append(("all", (field.group(1),)))
            at = field.end()


def extract(text: str) -> dict[str, object]:
    entry_types: list[str] = []
    field_types: dict[str, tuple[str, str, str]] = {}
    entry_fields: dict[str, list[str]] = {}
    mandatory: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    data: dict[str, tuple[str, str]] = {}
    start = text.index("% Data model specification")
    for command in _COMMAND.finditer(text, start):
        kind, options, (body, _) = command.group(1), command.group(2), _group(text,
                                                                             command.end())
        if kind.endswith("Entrytypes"):
            entry_types.extend(_names(body))
        elif kind.endswith("Fields"):
            opts = _options(options)
            for name in _names(body):
                field_types[name] = (opts["type"], opts["datatype"], opts.get("format", ""))
        elif kind.endswith("Entryfields"):
            for entry_type in _names(options or "*"):
                entry_fields.setdefault(entry_type, []).extend(_names(body))
        else:
            for constraint in _CONSTRAINT.finditer(body):
                opts = _options(constraint.group(1))
                inner, _ = _group(body, constraint.end())
                if opts["type"] == "mandatory":
                    for entry_type in _names(options or "*"):
                        mandatory.setdefault(entry_type, []).extend(_mandatory(inner))
                else:
                    pattern = _PATTERN.search(constraint.group(1))
                    for field in _FIELD.findall(inner):
                        data[field] = (opts["datatype"], pattern.group(1) if pattern else "")
    return {"ENTRY_TYPES": entry_types, "FIELD_TYPES": field_types,
            "ENTRY_FIELDS": entry_fields, "MANDATORY": mandatory, "DATA_CONSTRAINTS": data}


def _lines(name: str, value: object, annotation: str) -> list[str]:
    if isinstance(value, list):
        out = [f"{name}: {annotation} = ("]
        out.extend(f"    {item!r}," for item in value)
        return [*out, ")"]
    assert isinstance(value, dict)
    out = [f"{name}: {annotation} = {{"]
    for key, item in value.items():
        if isinstance(item, list) and item and isinstance(item[0], str):
            out.append(f"    {key!r}: frozenset({{")
            line = "       "
            for field in sorted(item):
                if len(line) + len(field) + 4 > 100:
                    out.append(line)
                    line = "       "
                line += f" {field!r},"
            out.extend([line, "    }),"])
        elif isinstance(item, list):
            out.append(f"    {key!r}: (")
            out.extend(f"        {requirement!r}," for requirement in item)
            out.append("    ),")
        else:
            out.append(f"    {key!r}: {item!r},")
    return [*out, "}"]


def source(path: Path) -> str:
    """The source of ``refbridge.check.biblatex_datamodel`` from the ``blx-dm.def`` at ``path``."""
    text = path.read_text(encoding="utf-8")
    version = _VERSION.search((path.parent / "biblatex.sty").read_text(encoding="utf-8"))
    table = extract(text)
    number = version.group(1) if version else "?"
    docstring = (f'"""biblatex\'s default data model, as biblatex {number} declares it in '
                 "blx-dm.def: entry types,\nfield types, the fields each entry type takes "
                 "(``*``: every type) and its mandatory fields\n(``all``: this field; ``or``: "
                 "one of these; ``xor``: exactly one of these), and the value\nconstraints. "
                 "Written by ``python -m refbridge.tools.regenerate`` from the file; a table of"
                 "\nfacts, never edited by hand and never imported by anything but "
                 'refbridge.check."""\n')
    out = [docstring, "from __future__ import annotations\n",
           f"BIBLATEX_VERSION = {number!r}\n"]
    for name, annotation in (("ENTRY_TYPES", "tuple[str, ...]"),
                             ("FIELD_TYPES", "dict[str, tuple[str, str, str]]"),
                             ("ENTRY_FIELDS", "dict[str, frozenset[str]]"),
                             ("MANDATORY", "dict[str, tuple[tuple[str, tuple[str, ...]], ...]]"),
                             ("DATA_CONSTRAINTS", "dict[str, tuple[str, str]]")):
        out.append("\n".join(_lines(name, table[name], annotation)) + "\n")
    return "\n".join(out) + "\n"
