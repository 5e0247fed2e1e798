"""Findings as the formats CI reads: ``text`` (``file:line: severity: message [rule]``),
``json`` (one array of objects), ``sarif`` (SARIF 2.1.0, with every rule's id and severity and
each finding's physical location) and ``github`` (GitHub Actions workflow commands,
``::warning file=F,line=L,title=RULE::message``). Lines are given one at a time, so findings
stream. ``refbridge verify`` prints its findings through the same functions, with its own
rules and tool name. This module must never decide what is a finding.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol

from refbridge.check.rules import RULES, Rule
from refbridge.model import Source
from refbridge.version import __version__


class Finding(Protocol):
    """What a report shows of one finding (``check``'s and ``verify``'s)."""

    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def source(self) -> Source | None: ...
    @property
    def key(self) -> str | None: ...
    @property
    def severity(self) -> str: ...
    @property
    def fix(self) -> object: ...

FORMATS: tuple[str, ...] = ("text", "json", "sarif", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: severity -> GitHub's workflow command
_GITHUB_COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}
#: What a workflow command's message and its properties must escape.
_GITHUB_MESSAGE = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_GITHUB_PROPERTY = {**_GITHUB_MESSAGE, ":": "%3A", ",": "%2C"}


def _escaped(text: str, table: dict[str, str]) -> str:
    return "".join(table.get(char, char) for char in text)


def as_object(finding: Finding) -> dict[str, object]:
    """The JSON object of one finding."""
    source = finding.source
    return {"rule": finding.code, "severity": finding.severity, "message": finding.message,
            "file": source.file if source else None, "line": source.line if source else None,
            "key": finding.key, "fixable": finding.fix is not None}


def _sarif_result(finding: Finding) -> dict[str, object]:
    result: dict[str, object] = {"ruleId": finding.code, "level": finding.severity,
                                 "message": {"text": finding.message}}
    source = finding.source
    if source is not None and source.file is not None:
        physical: dict[str, object] = {"artifactLocation": {"uri": source.file}}
        if source.line:
            physical["region"] = {"startLine": source.line}
        result["locations"] = [{"physicalLocation": physical}]
    return result


def _sarif(findings: Iterable[Finding], tool: str, rules: Sequence[Rule]) -> Iterator[str]:
    driver = {"name": tool, "version": __version__,
              "rules": [{"id": rule.id, "shortDescription": {"text": rule.what},
                         "defaultConfiguration": {"level": rule.severity}} for rule in rules]}
    head = json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0",
                       "runs": [{"tool": {"driver": driver}, "results": []}]}, indent=1)
    before, after = head.rsplit('"results": []', 1)
    yield before + '"results": ['
    for index, finding in enumerate(findings):
        yield ("  " if index == 0 else " ,") + json.dumps(_sarif_result(finding))
    yield "]" + after


def _json(findings: Iterable[Finding], tool: str, rules: Sequence[Rule]) -> Iterator[str]:
    yield "["
    for index, finding in enumerate(findings):
        yield ("  " if index == 0 else " ,") + json.dumps(as_object(finding), ensure_ascii=False)
    yield "]"


def _github_line(finding: Finding) -> str:
    source = finding.source
    properties = []
    if source is not None and source.file is not None:
        properties.append(f"file={_escaped(source.file, _GITHUB_PROPERTY)}")
        if source.line:
            properties.append(f"line={source.line}")
    properties.append(f"title={finding.code}")
    return (f"::{_GITHUB_COMMANDS[finding.severity]} {','.join(properties)}::"
            f"{_escaped(finding.message, _GITHUB_MESSAGE)}")


#: format -> the lines of its report (of the findings, by the tool, with its rules)
_REPORTS: dict[str, Callable[[Iterable[Finding], str, Sequence[Rule]], Iterator[str]]] = {
    "text": lambda findings, tool, rules: (str(finding) for finding in findings),
    "json": _json,
    "sarif": _sarif,
    "github": lambda findings, tool, rules: (_github_line(finding) for finding in findings),
}


def report_lines(findings: Iterable[Finding], form: str, tool: str = "refbridge check",
                 rules: Sequence[Rule] = RULES) -> Iterator[str]:
    """The lines of the ``form`` report of ``findings`` by ``tool``, whose rules are ``rules``."""
    return _REPORTS[form](findings, tool, rules)
