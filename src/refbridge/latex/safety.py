"""Which LaTeX a writer may write as LaTeX.

Values keep LaTeX the model has no meaning for (``Raw``), formulas as their TeX (``Math``) and
a .bib's own spelling of a value or name. Any of these can come from data nobody checked: a
profile page, an arXiv abstract, a CSL-JSON file's ``custom`` object. Written into a .bib, a
.bbl or a LaTeX bibliography, LaTeX that reaches outside the document (files, the shell, Lua),
changes how TeX reads characters, builds command names, defines commands or ends the document
would run when the user compiles. Such LaTeX is never written as LaTeX: writers show it as
text instead (escaped, so that it prints as written). Everything else (accents, fonts, logos,
unknown macros) is written as it was. A ``@preamble`` is LaTeX by nature (``\\input
tugboat.def``, ``\\providecommand{\\noopsort}[1]{}``): a .bib's own is written back as it
was, one from a CSL-JSON file only when it is harmless as a preamble (definitions allowed).
This module must never rewrite LaTeX; it only judges it.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Commands that read or write files, run programs or Lua, change category codes, build
#: command names from text, or stop or restart the document's processing (TeX primitives of
#: pdfTeX, XeTeX and LuaTeX, and LaTeX's and common packages' commands that load files).
HARMFUL_COMMANDS: frozenset[str] = frozenset({
    # files
    "input", "include", "includeonly", "InputIfFileExists", "IfFileExists", "openin",
    "openout", "read", "readline", "write", "immediate", "closeout", "closein", "newwrite",
    "newread", "verbatiminput", "VerbatimInput", "lstinputlisting", "inputminted",
    "includegraphics", "includepdf", "includestandalone", "import", "subimport",
    "subfile", "usepackage", "RequirePackage", "documentclass", "LoadClass",
    "usetikzlibrary", "filesize", "filedump", "filemoddate", "mdfivesum", "pdffilesize",
    "pdffiledump", "pdffilemoddate", "pdfmdfivesum", "pdfobj", "pdfximage",
    # programs, Lua and the engine
    "write18", "ShellEscape", "shellescape", "pdfshellescape", "directlua", "luadirect",
    "luaexec", "latelua", "luacode", "special", "pdfliteral", "primitive", "pdfprimitive",
    "dump", "batchmode", "nonstopmode", "scrollmode", "errorstopmode", "endinput",
    "enddocument", "everyjob", "everyeof", "everypar", "everymath", "everydisplay",
    "everyhbox", "everyvbox", "everycr", "output",
    # how characters are read and commands named
    "catcode", "lccode", "uccode", "mathcode", "delcode", "csname", "endcsname",
    "scantokens", "makeatletter", "ExplSyntaxOn", "ifcsname",
})

#: Commands that define or redefine commands: at home in a .bib's ``@preamble``
#: (``\providecommand{\noopsort}[1]{}``), never in a value, where a definition would change
#: how the rest of the bibliography prints.
DEFINING_COMMANDS: frozenset[str] = frozenset({
    "def", "edef", "gdef", "xdef", "let", "futurelet", "global", "newcommand",
    "renewcommand", "providecommand", "DeclareRobustCommand", "DeclareTextCommand",
    "DeclareMathOperator", "newenvironment", "renewenvironment", "chardef", "mathchardef",
    "countdef", "dimendef", "skipdef", "toksdef", "typeout", "message", "wlog",
})

#: ``\end{name}`` is harmless but for the document's own end.
_END_OF_DOCUMENT = re.compile(r"\\end\s*\{\s*document\s*\}")
_COMMAND = re.compile(r"\\([A-Za-z@]+|.)", re.DOTALL)
#: What would end or break out of a formula written as ``$...$``.
_FORMULA_BREAKERS = ("$", "%", "\\(", "\\)", "\\[", "\\]")


def is_harmless(tex: str, *, preamble: bool = False) -> bool:
    """Whether ``tex`` may be written as LaTeX: no harmful command, no definition (but in a
    ``preamble``), no ``^^`` character notation (TeX reads ``^^5c`` as a backslash), no end of
    the document (``\\end`` of an environment is fine)."""
    if "\\" not in tex:  # most values: judged without hashing them for the cache
        return "^^" not in tex
    return _commands_harmless(tex, preamble)


@lru_cache(maxsize=4096)
def _commands_harmless(tex: str, preamble: bool) -> bool:
    """``is_harmless`` of a ``tex`` that holds a backslash."""
    if "^^" in tex or _END_OF_DOCUMENT.search(tex):
        return False
    for match in _COMMAND.finditer(tex):
        name = match.group(1)
        if name in HARMFUL_COMMANDS or "@" in name and not _spacing_factor(name) or \
                not preamble and name in DEFINING_COMMANDS:
            return False  # "@" in a longer name: LaTeX's internals, \@@input among them
    return True


def _spacing_factor(name: str) -> bool:
    """Whether command ``name`` (read with ``@`` as a letter) is ``\\@``, the spacing factor
    command, followed by letters (``COIN\\@AAMAS``): where a bibliography is read (bibtex's
    .bbl in the document, biblatex's with its own catcodes) ``@`` is no letter, so LaTeX reads
    ``\\@`` and then text, and prints the text. A name with a second ``@`` (``\\@@input``), or
    whose letters after it name a harmful command (``\\@input``), is not taken for one: it
    would be LaTeX's internals where ``@`` is a letter."""
    rest = name[1:]
    return name[0] == "@" and "@" not in rest and rest not in HARMFUL_COMMANDS and \
        "@" + rest not in _AT_INTERNALS


#: LaTeX's internals (``@`` a letter) that read or write files.
_AT_INTERNALS: frozenset[str] = frozenset(
    {"@input", "@iinput", "@input@", "@addtofilelist", "@writefile", "@starttoc",
     "@auxout", "@mainaux", "@partaux", "@inputcheck", "@filelist", "@obsoletefile"})


def formula_is_writable(tex: str) -> bool:
    """Whether a formula's TeX may be written between ``$`` signs: harmless, with balanced
    braces and nothing that would end the formula early or comment out its end."""
    if any(breaker in tex for breaker in _FORMULA_BREAKERS):
        return False
    depth = 0
    for char in _unescaped_braces(tex):
        depth += 1 if char == "{" else -1
        if depth < 0:
            return False
    return depth == 0 and is_harmless(tex)


def _unescaped_braces(tex: str) -> list[str]:
    return [m.group() for m in re.finditer(r"(?<!\\)[{}]", tex.replace("\\\\", ""))]
