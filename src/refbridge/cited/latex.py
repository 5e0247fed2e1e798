"""Keys cited by LaTeX sources: ``\\cite`` and its natbib and biblatex relatives.

The command tables say which commands cite (``CITE_COMMANDS``: where their key argument is,
whether they take several, as biblatex's ``\\cites[see][p.~3]{a}{b}`` does), which name
libraries (``\\bibliography``, ``\\addbibresource``) and which bring in other files
(``\\input``, ``\\include``, ``\\subfile``, ``\\import``...: resolved relative to the main
document, else to the including file, ``.tex`` added as LaTeX adds it), whose citations count
where the command is, as TeX reads them. What LaTeX never typesets as commands is blanked out
first, read left to right as TeX reads it: comments (``%``, the ``comment`` environment,
``\\iffalse``), verbatim environments (``verbatim``, ``lstlisting``, ``minted``...) and verbatim
arguments (``\\verb|...|``, ``\\lstinline``, ``\\mintinline``), keeping every offset so that
each citation keeps its line. This module must never read a library or run LaTeX.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from refbridge.cited.citations import BIBLATEX, BIBTEX, Scan, line_of, read_document, split_keys
from refbridge.errors import Diagnostics


@dataclass(frozen=True, slots=True)
class CiteCommand:
    """A citing command: its keys are mandatory argument ``keys_at`` (0: the first);
    ``multi``: further ``[..][..]{keys}`` groups follow (biblatex's multicite commands)."""

    keys_at: int = 0
    multi: bool = False


_SINGLE = CiteCommand()
_VOLUME = CiteCommand(keys_at=1)  # \volcite[pre]{volume}[pages]{key}
_MULTI = CiteCommand(multi=True)

#: Citing commands of LaTeX, natbib, biblatex and apacite, lower-case first letters; each is
#: also a command with a capital first letter (``\Citet``, ``\Textcite``).
_COMMANDS: dict[str, CiteCommand] = {
    **dict.fromkeys([
        "cite", "nocite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear",
        "citeyearpar", "citenum", "citetalias", "citepalias", "citetext", "parencite",
        "textcite", "autocite", "footcite", "footcitetext", "smartcite", "supercite",
        "fullcite", "footfullcite", "citetitle", "citedate", "citeurl", "citeurldate",
        "citefield", "citename", "citelist", "notecite", "pnotecite", "fnotecite", "citeA",
        "citeNP", "citeyearNP", "citeauthorNP", "shortcite", "shortciteNP", "nptextcite",
    ], _SINGLE),
    **dict.fromkeys(["volcite", "pvolcite", "fvolcite", "ftvolcite", "svolcite", "tvolcite",
                     "avolcite"], _VOLUME),
    **dict.fromkeys(["cites", "parencites", "textcites", "autocites", "footcites",
                     "footcitetexts", "smartcites", "supercites"], _MULTI),
}
CITE_COMMANDS: dict[str, CiteCommand] = {
    **{name[0].upper() + name[1:]: command for name, command in _COMMANDS.items()},
    **_COMMANDS,
}
#: ``\citetext`` holds free text, no key.
CITE_COMMANDS.pop("citetext")
CITE_COMMANDS.pop("Citetext")

#: Commands that bring in another file -> how many mandatory arguments (the last is the file;
#: a first one is the directory) and whether that directory is the including file's.
INCLUDE_COMMANDS: dict[str, tuple[int, bool]] = {
    "input": (1, False), "include": (1, False), "subfile": (1, False),
    "InputIfFileExists": (1, False), "import": (2, False), "inputfrom": (2, False),
    "includefrom": (2, False), "subimport": (2, True), "subinputfrom": (2, True),
    "subincludefrom": (2, True),
}
#: Commands that name libraries -> the file ending their names leave out, and the dialect.
LIBRARY_COMMANDS: dict[str, tuple[str, str]] = {
    "bibliography": (".bib", BIBTEX), "addbibresource": ("", BIBLATEX),
    "addglobalbib": ("", BIBLATEX), "addsectionbib": ("", BIBLATEX),
}

_COMMAND = re.compile(r"\\([A-Za-z]+)")
_USES_BIBLATEX = re.compile(r"\\usepackage\s*(?:\[[^\]]*\])?\s*\{[^}]*\bbiblatex\b[^}]*\}")
#: Environments whose body LaTeX reads as verbatim text, or never reads (``comment``): a
#: ``\\cite`` inside cites nothing. (``alltt`` is not one: it typesets commands.)
VERBATIM_ENVIRONMENTS: tuple[str, ...] = (
    "verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim", "BVerbatim*", "LVerbatim",
    "LVerbatim*", "lstlisting", "minted", "comment", "filecontents", "filecontents*")


@dataclass(frozen=True, slots=True)
class VerbatimCommand:
    """A command with a verbatim argument, delimited by any character on one line
    (``\\verb|...|``) or, when ``braces``, also by braces; ``before``: how many ordinary
    mandatory arguments come first (``\\mintinline{latex}{...}``: the language);
    ``optional``: optional arguments may come first (``\\lstinline[language=TeX]``)."""

    before: int = 0
    optional: bool = True
    braces: bool = True


#: The commands of LaTeX (``\\verb``), fancyvrb, listings and minted with a verbatim argument.
VERBATIM_COMMANDS: dict[str, VerbatimCommand] = {
    "verb": VerbatimCommand(optional=False, braces=False),
    "Verb": VerbatimCommand(braces=False), "lstinline": VerbatimCommand(),
    "mintinline": VerbatimCommand(before=1), "mint": VerbatimCommand(before=1)}
#: What TeX reads left to right that can hide a citation: a control symbol (``\\%``, ``\\\\``:
#: no comment follows), a comment, a verbatim environment, ``\\iffalse ... \\fi``, a command
#: with a verbatim argument (its end found by ``_verbatim_argument_end``).
_UNTYPESET = re.compile(
    r"\\[^A-Za-z]"
    r"|%[^\n]*"
    r"|\\begin\s*\{(?P<environment>" + "|".join(map(re.escape, VERBATIM_ENVIRONMENTS)) +
    r")\}.*?\\end\{(?P=environment)\}"
    r"|\\iffalse(?![A-Za-z]).*?\\fi(?![A-Za-z])"
    r"|\\(?P<command>" + "|".join(VERBATIM_COMMANDS) + r")(?![A-Za-z])",
    re.DOTALL)
#: A verbatim argument delimited by a character other than a brace: up to its next
#: occurrence on the same line.
_DELIMITED = re.compile(r"([^\sA-Za-z{])[^\n]*?\1")
#: White space LaTeX skips between a command's arguments (not a blank line: a paragraph).
_BETWEEN_ARGUMENTS = re.compile(r"[ \t]*(?:\n[ \t]*)?")
#: ``\input chapter``: TeX's own form, without braces.
_BARE_FILE = re.compile(r"[ \t]+([^\s{}\\%]+)")
_CLOSERS = {"[": "]", "(": ")", "{": "}"}


def blank_untypeset(text: str) -> str:
    """``text`` with what LaTeX never typesets as commands replaced by spaces: comments,
    verbatim environments and arguments, ``\\iffalse ... \\fi`` (newlines kept: offsets and
    lines stay)."""
    pieces: list[str] = []
    done = 0
    while (match := _UNTYPESET.search(text, done)) is not None:
        start = match.start()
        end = match.end() if match.group("command") is None \
            else _verbatim_argument_end(text, match)
        if len(match.group()) > 2 or match.group()[0] == "%":  # not a control symbol
            pieces += [text[done:start], re.sub(r"[^\n]", " ", text[start:end])]
        else:
            pieces.append(text[done:end])
        done = end
    return "".join(pieces) + text[done:]


def _verbatim_argument_end(text: str, match: re.Match[str]) -> int:
    """Where the verbatim argument of the command ``match`` found ends (the command's end
    when the argument cannot be told: only the command is blanked)."""
    command = VERBATIM_COMMANDS[match.group("command")]
    arguments = _Arguments(text, match.end())
    if text.startswith("*", arguments.pos):  # \verb*|...|: spaces shown
        arguments.pos += 1
    optional = "[" if command.optional else ""
    if len(list(arguments.mandatory(command.before, optional))) != command.before:
        return match.end()
    if optional and arguments.next_opener() == "[" and arguments.group() is None:
        return match.end()
    if command.braces and text.startswith("{", arguments.pos):
        return arguments.pos if arguments.group() is not None else match.end()
    delimited = _DELIMITED.match(text, arguments.pos)
    return delimited.end() if delimited else match.end()


class _Arguments:
    """Reads a command's arguments after ``pos`` in ``text``: groups in brackets, parentheses
    or braces, each balanced."""

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos

    def next_opener(self) -> str:
        """The character that opens the next argument ('' when none follows)."""
        after = _BETWEEN_ARGUMENTS.match(self.text, self.pos)
        assert after is not None  # the pattern matches the empty string
        char = self.text[after.end():after.end() + 1]
        return char if char in _CLOSERS else ""

    def group(self) -> str | None:
        """The next group's content (None: unbalanced up to the end of the text)."""
        text = self.text
        start = _BETWEEN_ARGUMENTS.match(text, self.pos).end()  # type: ignore[union-attr]
        closer = _CLOSERS[text[start]]
        depth = 1 if closer == "}" else 0
        index = start + 1
        while index < len(text):
            char = text[index]
            if char == "\\":  # an escaped character, or a command: never a delimiter
                index += 2
                continue
            depth += (char == "{") - (char == "}")
            if depth < 0:
                return None
            if depth == 0 and char == closer:
                self.pos = index + 1
                return text[start + 1:index]
            index += 1
        return None

    def mandatory(self, count: int, optional: str = "[") -> Iterator[str]:
        """The next ``count`` mandatory arguments, skipping optional ones opened by a
        character of ``optional``; stops early at anything else."""
        for _ in range(count):
            while (opener := self.next_opener()) and opener in optional:
                if self.group() is None:
                    return
            if self.next_opener() != "{":
                return
            argument = self.group()
            if argument is None:
                return
            yield argument


def scan(path: str, diagnostics: Diagnostics, encoding: str | None = None) -> Scan:
    """What the LaTeX document at ``path`` and the files it brings in cite, in the order TeX
    reads them: a file's citations where the command that brings it in is (each file read
    once, at its first inclusion)."""
    found = Scan()
    main_directory = os.path.dirname(path)
    reading = [_scan_file(path, main_directory, found, diagnostics, encoding)]
    seen = {os.path.abspath(path)}
    while reading:
        included = next(reading[-1], None)
        if included is None:
            reading.pop()
        elif os.path.abspath(included) not in seen:
            seen.add(os.path.abspath(included))
            reading.append(_scan_file(included, main_directory, found, diagnostics, encoding))
    return found


def scan_text(text: str, path: str, diagnostics: Diagnostics) -> Scan:
    """What the LaTeX text ``text`` (from ``path``) cites and names itself, the files it
    brings in left unread."""
    found = Scan()
    for _ in _scan_text(text, path, os.path.dirname(path), found, diagnostics):
        pass
    return found


def _scan_file(path: str, main_directory: str, found: Scan, diagnostics: Diagnostics,
               encoding: str | None) -> Iterator[str]:
    """Note what ``path`` cites and names into ``found``; yield the files it brings in."""
    yield from _scan_text(read_document(path, diagnostics, encoding), path, main_directory,
                          found, diagnostics)


def _scan_text(text: str, path: str, main_directory: str, found: Scan,
               diagnostics: Diagnostics) -> Iterator[str]:
    text = blank_untypeset(text)
    if _USES_BIBLATEX.search(text):
        found.dialects.add(BIBLATEX)
    for match in _COMMAND.finditer(text):
        name = match.group(1)
        line = line_of(text, match.start())
        arguments = _Arguments(text, match.end() + (text[match.end():match.end() + 1] == "*"))
        if name in CITE_COMMANDS:
            _cite(CITE_COMMANDS[name], arguments, found, path, line, diagnostics)
        elif name in LIBRARY_COMMANDS:
            ending, dialect = LIBRARY_COMMANDS[name]
            found.dialects.add(dialect)
            for names in arguments.mandatory(1):
                for library in split_keys(names):
                    found.name_library(library, path, line, ending)
        elif name in INCLUDE_COMMANDS:
            included = _included(name, arguments, path, main_directory)
            if included is None:
                continue
            resolved = _resolved(included)
            if resolved is None:
                diagnostics.warning(f"\\{name}: no file {included!r} (nor with .tex); its "
                                    "citations are not read", path, line)
            else:
                yield resolved


def _cite(command: CiteCommand, arguments: _Arguments, found: Scan, path: str, line: int,
          diagnostics: Diagnostics) -> None:
    """Note the keys of one citing command whose arguments follow."""
    optional = "[(" if command.multi else "["
    groups = list(arguments.mandatory(command.keys_at + 1, optional))
    while command.multi and len(groups) > command.keys_at \
            and arguments.next_opener() in ("[", "{"):
        more = list(arguments.mandatory(1))
        if not more:  # an optional argument with no keys after it, or an unbalanced one
            break
        groups += more
    for keys in groups[command.keys_at:]:
        for key in split_keys(keys):
            if "#" in key:  # a macro's parameter: \newcommand{\mycite}[1]{\cite{#1}}
                continue
            if "\\" in key or "{" in key:
                diagnostics.warning(f"cannot tell the key of {key!r} (a macro?); not read",
                                    path, line)
                continue
            found.cite(key, path, line)


def _included(name: str, arguments: _Arguments, path: str, main_directory: str) -> str | None:
    """The file an including command names, joined to the directory it is relative to."""
    count, relative_to_self = INCLUDE_COMMANDS[name]
    parts = list(arguments.mandatory(count))
    if not parts and name == "input":
        bare = _BARE_FILE.match(arguments.text, arguments.pos)
        parts = [bare.group(1)] if bare else []
    if len(parts) != count or not parts[-1].strip():
        return None
    base = os.path.dirname(path) if relative_to_self else main_directory
    target = os.path.join(base, *(part.strip() for part in parts))
    if not relative_to_self and not _resolved(target):
        beside = os.path.join(os.path.dirname(path), *(part.strip() for part in parts))
        return beside if _resolved(beside) else target
    return target


def _resolved(path: str) -> str | None:
    """The file LaTeX reads for ``path``: ``path.tex`` first, else ``path`` itself."""
    for candidate in (path + ".tex", path):
        if os.path.isfile(candidate):
            return candidate
    return None
