"""Checks that output text holds record text as text: no LaTeX command, HTML element or
attribute, Markdown link or RTF control word came from a record, and the text itself survived.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

#: TeX primitives and LaTeX commands no writer needs and a record must never be able to run
#: (commands writers do use, such as \\par and \\end, are caught by the text checks instead:
#: a record's "\\par" that became a command is missing from the text shown)
DANGEROUS_TEX: frozenset[str] = frozenset({
    "input", "include", "write", "immediate", "openout", "openin", "read", "def", "edef",
    "gdef", "xdef", "let", "catcode", "csname", "special", "usepackage", "newcommand",
    "renewcommand", "documentclass", "typeout", "message", "rtf",
})
_CONTROL_WORD = re.compile(r"\\([A-Za-z]+)")


def tex_commands(text: str) -> set[str]:
    """The control words TeX sees in ``text`` (``\\\\`` is an escaped backslash, not one)."""
    return set(_CONTROL_WORD.findall(re.sub(r"\\\\", "", text)))


def assert_no_dangerous_tex(text: str) -> None:
    assert tex_commands(text) & DANGEROUS_TEX == set(), text


#: what LaTeX writers put for each special character of record text
TEX_ESCAPES: dict[str, str] = {
    r"\textbackslash{}": "\\", r"\{": "{", r"\}": "}", r"\%": "%", r"\$": "$", r"\&": "&",
    r"\#": "#", r"\_": "_", r"\textasciitilde{}": "~", r"\textasciicircum{}": "^",
    r"\textless{}": "<", r"\textgreater{}": ">", "~": " ", r"\\": "\\",
}
_TEX_TOKEN = re.compile("|".join(re.escape(e) for e in sorted(TEX_ESCAPES, key=len,
                                                              reverse=True))
                        + r"|\\href\{(?:\\.|[^\\{}])*\}|\\[A-Za-z]+\s*|[{}]")


def tex_text(latex: str) -> str:
    """The text a LaTeX fragment shows: escapes undone, commands, link targets and grouping
    braces dropped (enough to find record text in writers' output)."""
    return _TEX_TOKEN.sub(lambda m: TEX_ESCAPES.get(m.group(), ""), latex)


# -- HTML -----------------------------------------------------------------------------------
def html_tree(markup: str) -> object:
    import html5lib

    return html5lib.parseFragment(markup, namespaceHTMLElements=False)


def assert_safe_html(markup: str) -> str:
    """Assert no script, no event attribute, no non-web link; return the visible text."""
    tree = html_tree(markup)
    elements = list(tree.iter())  # type: ignore[attr-defined]
    assert {e.tag for e in elements} & {"script", "img", "iframe", "style", "object"} == set()
    assert not [name for e in elements for name in e.attrib if name.lower().startswith("on")]
    for element in elements:
        for attribute in ("href", "src"):
            link = element.get(attribute)
            assert link is None or link.startswith(("https://", "http://")), link
    return "".join(tree.itertext())  # type: ignore[attr-defined]


def markdown_html(markdown: str) -> str:
    """Markdown rendered as CommonMark does (raw HTML passes through, so it is caught)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").render(markdown)


# -- RTF ------------------------------------------------------------------------------------
#: control words an RTF bibliography may use
RTF_WORDS: frozenset[str] = frozenset({
    "rtf", "ansi", "deff", "par", "b", "i", "ul", "ulnone", "scaps", "nosupersub", "super",
    "sub", "u", "line", "tab", "fonttbl", "f", "fswiss", "fnil", "fs", "pard", "li", "fi",
    "plain", "ql", "sl", "slmult", "ri", "tx", "strike", "ldblquote", "rdblquote", "lquote",
    "rquote", "endash", "emdash", "bullet", "uc", "field", "fldinst", "fldrslt",
})
_RTF_TOKEN = re.compile(r"\\([a-z]+)(-?\d+)? ?|\\([\\{}*])|\\'([0-9a-f]{2})|([{}])|([^\\{}]+)")
_RTF_LINK = re.compile(r'HYPERLINK "([^"]*)"')


#: RTF control words that stand for a character
RTF_CHARACTERS: dict[str, str] = {
    "ldblquote": "“", "rdblquote": "”", "lquote": "‘", "rquote": "’", "endash": "–",
    "emdash": "—", "bullet": "•", "tab": "\t", "par": "\n", "line": "\n",
}


def rtf_text(rtf: str) -> str:
    """The text of an RTF document; asserts groups balance, only known control words and only
    http(s) hyperlinks."""
    for link in _RTF_LINK.findall(rtf):
        assert link.startswith(("https://", "http://")), link
    depth = 0
    text: list[str] = []
    fallback = 1  # characters after \uN that stand in for it (set by \ucN)
    skip = 0
    for word, number, escaped, hex_byte, brace, plain in _RTF_TOKEN.findall(rtf):
        if word:
            assert word in RTF_WORDS, f"unexpected RTF control word \\{word}"
            if word == "uc":
                fallback = int(number)
            elif word == "u":
                text.append(chr(int(number) % 65536))
                skip = fallback
                continue
            text.append(RTF_CHARACTERS.get(word, ""))
        elif escaped:
            text.append("" if escaped == "*" else escaped)
        elif hex_byte:
            text.append(bytes([int(hex_byte, 16)]).decode("cp1252"))
        elif brace:
            depth += 1 if brace == "{" else -1
            assert depth >= 0
        else:
            text.append(plain.replace("\n", "")[skip:])
        skip = 0
    assert depth == 0
    return "".join(text)


# -- TeX ------------------------------------------------------------------------------------
def run_tex(folder: Path, *commands: list[str]) -> str:
    """Run TeX tools in ``folder`` (no shell escape); the log of the last, or fail."""
    output = ""
    for command in commands:
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True,
                              errors="replace", timeout=120, check=False)
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"{' '.join(command)} failed:\n{output[-3000:]}"
    return output


def tex_available() -> bool:
    return all(shutil.which(tool) for tool in ("pdflatex", "bibtex", "biber"))
