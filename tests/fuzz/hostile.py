"""Hostile record text: values that would become commands or markup if a writer let them
through, and addresses that must never become links. The payloads are data, in
``tests/security/hostile_corpus.json`` (by class); this module reads them for the fuzzers, the
tests/security/test_hostile_* tests and ``tests/security/test_hostile_corpus.py``."""

from __future__ import annotations

import json
from pathlib import Path

CORPUS_FILE = Path(__file__).resolve().parent.parent / "security" / "hostile_corpus.json"
_CORPUS = json.loads(CORPUS_FILE.read_text(encoding="utf-8"))


def _generated(spec: dict[str, object]) -> str:
    return f"{spec.get('before', '')}{str(spec['text']) * int(str(spec['times']))}" \
        f"{spec.get('after', '')}"


#: payload class -> its payloads (the generated ones built)
PAYLOADS: dict[str, tuple[str, ...]] = {name: tuple(texts)
                                        for name, texts in _CORPUS["texts"].items()}
for _spec in _CORPUS["generated"]:
    PAYLOADS[_spec["class"]] = PAYLOADS.get(_spec["class"], ()) + (_generated(_spec),)

#: text that is markup or commands in LaTeX, HTML, Markdown, RTF, RIS or BibTeX syntax
HOSTILE_TEXTS: tuple[str, ...] = tuple(
    text for name in ("latex", "html", "markdown", "rtf", "bibtex", "bidi")
    for text in PAYLOADS[name])

#: text pdflatex has no glyph for (bidi controls), whatever a writer does: not markup
NOT_TYPESETTABLE: frozenset[str] = frozenset(PAYLOADS["bidi"])

#: addresses that must never become links (only http, https and DOIs may)
HOSTILE_URLS: tuple[str, ...] = tuple(_CORPUS["urls"]["hostile"])

#: http(s) addresses that try to break out of an attribute or a LaTeX argument
BREAKOUT_URLS: tuple[str, ...] = tuple(_CORPUS["urls"]["breakout"])

HOSTILE_DOIS: tuple[str, ...] = tuple(_CORPUS["dois"])
