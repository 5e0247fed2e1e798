"""The ``refbridge`` command line: parses options and calls the library, nothing more.

Every command reports input problems as ``file:line: level: message`` on standard error and
exits with a documented status (``refbridge.errors.ExitStatus``); no traceback reaches the user
(set ``REFBRIDGE_DEBUG=1`` to see one for an internal error). Library modules are imported
inside the commands so that ``refbridge`` starts fast.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from refbridge import __version__
from refbridge.errors import Diagnostics, ExitStatus, RefbridgeError

F = TypeVar("F", bound=Callable[..., Any])


def _report(diagnostics: Diagnostics, accept_skipped: bool) -> None:
    """Print the run's messages; exit with SKIPPED if records were skipped unaccepted."""
    for message in diagnostics.messages:
        click.echo(str(message), err=True)
    if diagnostics.skipped:
        click.echo(f"refbridge: {diagnostics.skipped} broken record(s) skipped", err=True)
        if not accept_skipped:
            sys.exit(ExitStatus.SKIPPED)


def handle_errors(command: F) -> F:
    """Turn refbridge's errors into a message and an exit status, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RefbridgeError as exc:
            click.echo(f"refbridge: error: {exc}", err=True)
            sys.exit(exc.exit_status)
        except KeyboardInterrupt:
            click.echo("refbridge: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:  # the reader of our output went away (`refbridge ... | head`)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(ExitStatus.OK)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # a bug: say so plainly, with the traceback on request
            if os.environ.get("REFBRIDGE_DEBUG"):
                raise
            click.echo(f"refbridge: internal error: {type(exc).__name__}: {exc} "
                       "(set REFBRIDGE_DEBUG=1 for details)", err=True)
            sys.exit(ExitStatus.FAILED)

    return wrapper  # type: ignore[return-value]


def input_options(command: F) -> F:
    """Options every command that reads records shares."""
    for option in reversed([
        click.argument("inputs", nargs=-1, required=True, metavar="INPUT..."),
        click.option("--from", "from_format", metavar="FORMAT",
                     help="Input format (default: detected from name and content)."),
        click.option("--encoding", metavar="NAME",
                     help="Input encoding (default: BOM, UTF-8, else cp1252)."),
        click.option("--strict", is_flag=True, help="Stop at the first broken record."),
        click.option("--skip-invalid", is_flag=True,
                     help="Exit 0 even if broken records were skipped (they are still "
                          "reported)."),
    ]):
        command = option(command)
    return command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="refbridge")
def main() -> None:
    """Turn publication records into .bib files, Zotero imports and publication lists."""


@main.command()
@input_options
@click.option("--to", "to_format", required=True, metavar="FORMAT",
              help="Output format (see `refbridge formats`).")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@click.option("--key-pattern", metavar="PATTERN",
              help="Citation-key pattern, e.g. '[auth:lower][year][shorttitle:1:lower]'.")
@click.option("--regenerate-keys", is_flag=True, help="Replace keys read from the input.")
@click.option("--fields", metavar="LIST", help="Write only these fields (comma-separated).")
@click.option("--exclude-fields", metavar="LIST", default="",
              help="Never write these fields (comma-separated), e.g. abstract,keywords.")
@click.option("--indent", default=2, show_default=True, type=click.IntRange(0, 16),
              help="Spaces of indentation.")
@click.option("--collection", metavar="NAME",
              help="Name of the collection holding the records (Zotero).")
@handle_errors
def convert(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
            strict: bool, skip_invalid: bool, to_format: str, output: str, unicode: bool,
            key_pattern: str | None, regenerate_keys: bool, fields: str | None,
            exclude_fields: str, indent: int, collection: str | None) -> None:
    """Convert INPUT files (- for standard input) to another format."""
    from refbridge.pipeline import ReadOptions
    from refbridge.pipeline import convert as run
    from refbridge.registry import WriteOptions

    def field_set(text: str) -> frozenset[str]:
        return frozenset(f.strip() for f in text.split(",") if f.strip())

    write_options = WriteOptions(
        unicode=unicode, key_pattern=key_pattern, regenerate_keys=regenerate_keys,
        include_fields=field_set(fields) if fields else None,
        exclude_fields=field_set(exclude_fields), indent=" " * indent, collection=collection)
    report = run(list(inputs), output, to_format, ReadOptions(from_format, encoding),
                 write_options, strict=strict)
    _report(report.diagnostics, skip_invalid)


@main.command()
@handle_errors
def formats() -> None:
    """List the registered readers and writers."""
    from refbridge.registry import get_reader, get_writer, reader_names, writer_names

    click.echo("Readers (--from):")
    for name in reader_names():
        click.echo(f"  {name:<12} {get_reader(name).description}")
    click.echo("Writers (--to):")
    for name in writer_names():
        click.echo(f"  {name:<12} {get_writer(name).description}")


@main.command("format")
@input_options
@click.option("--style", default="apa", show_default=True, metavar="STYLE",
              help="A .csl file, a style id or alias (see `refbridge styles`).")
@click.option("--to", "output_format", default="text", show_default=True,
              type=click.Choice(["text", "html", "markdown", "latex", "rtf"]), help="Output.")
@click.option("--locale", metavar="xx-XX", help="Locale (default: the style's).")
@click.option("--cite", is_flag=True, help="Print each item's in-text citation instead.")
@click.option("--highlight", metavar="NAME",
              help="Set this author in bold: 'Family' or 'Family, Given' (CV lists).")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles (.csl files, style modules); repeatable.")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@handle_errors
def format_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                   strict: bool, skip_invalid: bool, style: str, output_format: str,
                   locale: str | None, cite: bool, highlight: str | None,
                   style_dirs: tuple[str, ...], output: str) -> None:
    """Format INPUT files as a bibliography (or in-text citations) in a citation style."""
    from refbridge.formatting import FormatOptions, format_files
    from refbridge.pipeline import ReadOptions

    diagnostics = Diagnostics(strict=strict)
    format_files(list(inputs), output,
                 FormatOptions(style, output_format, locale, cite, highlight, style_dirs),
                 diagnostics, ReadOptions(from_format, encoding))
    _report(diagnostics, skip_invalid)


@main.command("styles")
@click.option("--search", metavar="WORDS", help="Only styles whose id or title has these words.")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles to include; repeatable.")
@handle_errors
def styles_command(search: str | None, style_dirs: tuple[str, ...]) -> None:
    """List citation styles: refbridge's style modules (marked *), aliases, CSL catalogue ids."""
    from refbridge.styles import list_styles

    for listing in list_styles(search, style_dirs):
        marker = "*" if listing.kind == "module" else " "
        click.echo(f"{marker} {listing.name}\t{listing.title}")


@main.command("cv")
@input_options
@click.option("--owner", "owners", multiple=True, metavar="NAME",
              help="Your name, highlighted in author lists ('Given Family' or 'Family, "
                   "Given'); repeat for other forms, e.g. a former name.")
@click.option("--style", default="cv", show_default=True, metavar="STYLE",
              help="Entry style: cv, apa, ieee-cv, a .csl file... (see `refbridge styles`).")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles (.csl files, style modules); repeatable.")
@click.option("--locale", metavar="xx-XX", help="Locale (default: the style's).")
@click.option("--to", "to", default="markdown", show_default=True, metavar="FORMAT",
              help="markdown, html, latex, text or docx.")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--fragment", is_flag=True, help="HTML: a fragment to paste, not a whole page.")
@click.option("--title", default="Publications", show_default=True, help="Heading of the list.")
@click.option("--group-by", default="year", show_default=True, metavar="KEY",
              help="year (newest first), type, subject (arXiv category) or none.")
@click.option("--sort", default="newest", show_default=True, metavar="ORDER",
              help="Order within a group: newest, oldest or title.")
@click.option("--numbering", default="count-down", show_default=True, metavar="HOW",
              help="count-down (the newest is [N]), count-up or none.")
@click.option("--highlight", default="bold", show_default=True, metavar="HOW",
              help="How the owner's name is set: bold, underline or none.")
@click.option("--since", type=int, metavar="YEAR", help="Only records from this year on.")
@click.option("--until", type=int, metavar="YEAR", help="Only records up to this year.")
@click.option("--type", "kinds", multiple=True, metavar="TYPE",
              help="Only this type: preprint, journal, conference, book, chapter, thesis, "
                   "report, talk, software, patent, other, or a CSL type; repeatable.")
@click.option("--subject", "subjects", multiple=True, metavar="CATEGORY",
              help="Only this arXiv category (cs.DB) or archive (cs); repeatable.")
@click.option("--match", "text", metavar="WORDS", help="Only records containing every word.")
@click.option("--abstracts", is_flag=True, help="Include abstracts.")
@click.option("--no-links", is_flag=True, help="Leave out the DOI, arXiv and URL links.")
@click.option("--no-summary", is_flag=True, help="Leave out the summary line.")
@click.option("--no-merge", is_flag=True, help="Keep duplicates found across the inputs.")
@handle_errors
def cv_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
               strict: bool, skip_invalid: bool, owners: tuple[str, ...], style: str,
               style_dirs: tuple[str, ...], locale: str | None, to: str, output: str,
               fragment: bool, title: str, group_by: str, sort: str, numbering: str,
               highlight: str, since: int | None, until: int | None, kinds: tuple[str, ...],
               subjects: tuple[str, ...], text: str | None, abstracts: bool, no_links: bool,
               no_summary: bool, no_merge: bool) -> None:
    """Write a CV or website publication list of INPUT files (merged, grouped, numbered)."""
    from refbridge.cv import CvOptions, Filters, write_cv
    from refbridge.pipeline import ReadOptions

    options = CvOptions(owners, style, style_dirs, locale, group_by, sort, numbering, highlight,
                        links=not no_links, abstracts=abstracts, summary=not no_summary,
                        merge=not no_merge, title=title,
                        filters=Filters(since, until, kinds, subjects, text))
    report = write_cv(list(inputs), output, options, to, fragment,
                      ReadOptions(from_format, encoding), strict=strict)
    for line in report.merge.describe():
        click.echo(f"refbridge: {line}", err=True)
    _report(report.diagnostics, skip_invalid)
