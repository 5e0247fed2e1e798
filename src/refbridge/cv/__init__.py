"""CV and website publication lists: the library entry point of ``refbridge cv``.

``write_cv`` reads the inputs (any registered reader), merges duplicates across them
(``refbridge.merge``), builds the CV document (``refbridge.cv.document``: filters, groups,
sorting, numbering, the owner's name highlighted by the style) and writes it with one of the
writers in ``refbridge.cv.writers`` (Markdown, HTML, LaTeX, text, DOCX), atomically. This
package must never format an entry itself: entries come from the style registry's styles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from refbridge.cv.document import CvDocument, CvOptions, build_cv
from refbridge.cv.select import Filters
from refbridge.cv.writers import WRITERS, get_cv_writer
from refbridge.errors import Diagnostics, OutputError
from refbridge.merge import MergeResult
from refbridge.model import Record
from refbridge.pipeline import read_records
from refbridge.runs import ReadOptions
from refbridge.textio import STDIO, atomic_output, refuse_overwriting_inputs

__all__ = ["WRITERS", "CvDocument", "CvOptions", "CvReport", "Filters", "build_cv",
           "render_cv", "write_cv"]


@dataclass(slots=True)
class CvReport:
    """What a run read, merged and listed."""

    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    records_read: int = 0
    merge: MergeResult = field(default_factory=MergeResult)
    records_listed: int = 0


def render_cv(records: Sequence[Record], options: CvOptions, to: str = "markdown",
              fragment: bool = False, diagnostics: Diagnostics | None = None
              ) -> tuple[str | bytes, CvDocument, MergeResult]:
    """The CV of ``records`` in output ``to`` (bytes for DOCX), its document and merges."""
    writer = get_cv_writer(to)
    document, merged = build_cv(records, options, writer.entry_output,
                                diagnostics if diagnostics is not None else Diagnostics())
    return writer.render(document, fragment), document, merged


def write_cv(inputs: Sequence[str], output: str, options: CvOptions, to: str = "markdown",
             fragment: bool = False, read_options: ReadOptions | None = None,
             strict: bool = False,
             prepare: Callable[[list[Record]], list[Record]] | None = None) -> CvReport:
    """Read ``inputs``, build their CV and write it to ``output`` (``-``: standard output).

    ``prepare``: a step applied to the records read before the list is built (enrichment)."""
    from refbridge.styles import resolve_style
    from refbridge.styles.locales import check_locale

    writer = get_cv_writer(to)
    if writer.binary and output == STDIO:
        raise OutputError(f"{to} output is a binary file: name it with -o FILE{writer.extension}")
    resolve_style(options.style, options.style_dirs)  # an unknown style fails before reading
    check_locale(options.locale)
    refuse_overwriting_inputs(output, inputs)  # before any enrichment asks a service
    report = CvReport(Diagnostics(strict=strict))
    records = list(read_records(inputs, report.diagnostics, read_options or ReadOptions()))
    report.records_read = len(records)
    if prepare is not None:
        records = prepare(records)
    content, document, report.merge = render_cv(records, options, to, fragment,
                                                report.diagnostics)
    report.records_listed = len(document.entries)
    with atomic_output(output, inputs) as out:
        if isinstance(content, bytes):
            out.flush()
            out.buffer.write(content)
        else:
            out.write(content)
    return report
