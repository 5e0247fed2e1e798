"""A .bib of what a paper cites: the library entry point of ``refbridge cited``.

``write_cited`` reads what the documents cite (``refbridge.cited.documents``: ``.aux``,
``.bcf``, LaTeX sources, Markdown), reads the libraries (``--library``, else those the
documents name) through the pipeline's readers, picks the cited entries with what they need
(``refbridge.cited.selection``) and writes them: from .bib libraries to a .bib, when no format
is named, as the libraries wrote them, with the ``@string`` definitions and ``@preamble``
blocks they need (``refbridge.cited.verbatim``); else with the writer of the output format, as
``convert`` writes them. The output is written atomically,
also when keys are missing (they are reported; the command line's exit status says so). This
package must never write an entry itself, nor drop one a cited entry needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from refbridge.cited.citations import BIBTEX, Scan
from refbridge.cited.documents import scan_documents
from refbridge.cited.libraries import library_paths
from refbridge.cited.selection import ORDERS, Selection, select
from refbridge.cited.verbatim import LibraryTexts, verbatim_bib
from refbridge.errors import Diagnostics, ExitStatus, RefbridgeError
from refbridge.pipeline import read_records, with_keys, write_records
from refbridge.registry import UnknownFormatName, WriteOptions, get_writer, writer_for_file
from refbridge.runs import ReadOptions
from refbridge.textio import STDIO, atomic_output, refuse_overwriting_inputs

__all__ = ["ORDERS", "CitedOptions", "CitedReport", "NoLibrary", "output_format",
           "write_cited"]

_BIB_ENDING = ".bib"
_BIB_DIALECTS = frozenset({BIBTEX, "biblatex"})


class NoLibrary(RefbridgeError):
    """No library to take the entries from: none given, none named by the documents."""

    exit_status = ExitStatus.USAGE


@dataclass(frozen=True, slots=True)
class CitedOptions:
    """How ``write_cited`` reads and writes. ``libraries``: empty for those the documents
    name; ``to_format``: None for ``output_format``'s choice."""

    libraries: tuple[str, ...] = ()
    order: str = "cited"
    to_format: str | None = None
    read_options: ReadOptions = ReadOptions()
    write_options: WriteOptions = field(default_factory=WriteOptions)
    strict: bool = False


@dataclass(slots=True)
class CitedReport:
    """What a run found: the documents' citations, the libraries read, the selection."""

    diagnostics: Diagnostics
    scan: Scan
    libraries: list[str]
    to_format: str
    selection: Selection
    records_read: int = 0

    def summary(self) -> str:
        selection = self.selection
        needed = len(selection.records) - selection.cited
        text = (f"{len(selection.records)} entr{'y' if len(selection.records) == 1 else 'ies'} "
                f"written as {self.to_format} ({selection.cited} cited, {needed} needed by "
                f"them) from {self.records_read} in {len(self.libraries)} librar"
                f"{'y' if len(self.libraries) == 1 else 'ies'}")
        if selection.missing:
            text += f"; {len(selection.missing)} cited key(s) missing"
        return text


def output_format(output: str, dialects: set[str]) -> str:
    """The writer for ``output`` when no ``--to`` names one: a .bib (or standard output) in
    the dialect the documents' processor reads (``bibtex`` for bibtex alone, else
    ``biblatex``, which writes a classic entry as it was), else the writer of the file ending.
    """
    if output == STDIO or output.lower().endswith(_BIB_ENDING):
        return BIBTEX if dialects == {BIBTEX} else "biblatex"
    named = writer_for_file(output)
    if named is None:
        raise UnknownFormatName(f"cannot tell the output format from the name {output!r}; name it "
                        "with --to")
    return named


def _as_written(selection: Selection, libraries: Sequence[str], options: CitedOptions,
                texts: LibraryTexts) -> str | None:
    """The selected entries as their .bib libraries wrote them, when they all come from one
    and no option asks for them written anew."""
    if options.write_options != WriteOptions() or \
            not all(path.lower().endswith(_BIB_ENDING) for path in libraries):
        return None
    return verbatim_bib(selection.records, texts)


def write_cited(documents: Sequence[str], output: str,
                options: CitedOptions = CitedOptions()) -> CitedReport:
    """Write the entries ``documents`` cite, from the libraries, to ``output`` (``-``:
    standard output)."""
    diagnostics = Diagnostics(strict=options.strict)
    scan = scan_documents(documents, diagnostics, options.read_options.encoding)
    libraries = list(options.libraries) or library_paths(scan.libraries)
    if not libraries:
        raise NoLibrary("the documents name no library (no \\bibdata, \\bibliography, "
                        "\\addbibresource or bibliography:); name one with --library")
    to_format = options.to_format or output_format(output, scan.dialects)
    get_writer(to_format)  # an unknown format fails before any library is read
    refuse_overwriting_inputs(output, [*documents, *libraries])
    texts = LibraryTexts()
    library = with_keys(read_records(libraries, diagnostics, options.read_options, texts),
                        WriteOptions())
    selection = select(library, scan, options.order)
    inputs = [*documents, *libraries]
    text = _as_written(selection, libraries, options, texts) \
        if options.to_format is None and to_format in _BIB_DIALECTS else None
    if text is None:
        write_records(selection.records, output, to_format,
                      replace(options.write_options, diagnostics=diagnostics), inputs)
    else:
        with atomic_output(output, inputs) as out:
            out.write(text)
    return CitedReport(diagnostics, scan, libraries, to_format, selection, len(library))
