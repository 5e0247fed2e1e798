"""The commands on a library's files: ``check`` (lint), ``fmt`` (format .bib files) and
``cited`` (the entries documents cite). Each parses its options and calls the library; nothing
more."""

from __future__ import annotations

import sys
from typing import Any

import click

from refbridge.cli.options import input_options
from refbridge.cli.reporting import _report, handle_errors
from refbridge.errors import Diagnostics, ExitStatus


@click.command("check")
@input_options
@click.option("--require", "requirements", multiple=True, metavar="STYLE",
              help="Report fields this style needs: bibtex, biblatex or apa; repeatable "
                   "(default: the dialect).")
@click.option("--dialect", type=click.Choice(["bibtex", "biblatex"]), default=None,
              help="The data model a .bib's entries are checked against (default: bibtex, "
                   "or biblatex when --require biblatex is given).")
@click.option("--select", multiple=True, metavar="RULE",
              help="Report only this rule (or severity: error, warning, note); repeatable.")
@click.option("--ignore", multiple=True, metavar="RULE",
              help="Do not report this rule (or severity), e.g. missing-field; repeatable.")
@click.option("--key-pattern", default=None, metavar="PATTERN",
              help="Report citation keys that are not this pattern's key for their entry.")
@click.option("--fix", is_flag=True,
              help="Write the safe fixes back into the .bib files (every other byte kept).")
@click.option("--format", "form", type=click.Choice(["text", "json", "sarif", "github"]),
              default="text", show_default=True, help="How findings are printed.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "note"]), default="warning",
              show_default=True, help="Exit 4 when a finding this severe or worse is found.")
@handle_errors
def check_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                  strict: bool, skip_invalid: bool, requirements: tuple[str, ...],
                  dialect: str | None, select: tuple[str, ...], ignore: tuple[str, ...],
                  key_pattern: str | None, fix: bool, form: str, fail_on: str) -> None:
    """Lint INPUT files: duplicates, data model, integrity, suspicious values (exit 4 if any)."""
    from refbridge.check import CheckOptions
    from refbridge.check.command import run_check_command
    from refbridge.runs import ReadOptions

    diagnostics = Diagnostics(strict=strict)
    run = run_check_command(list(inputs), diagnostics, CheckOptions.of(
        requirements, dialect, select, ignore, key_pattern), ReadOptions(from_format, encoding),
        click.echo, form, fix, fail_on)
    for applied in run.fixed:
        click.echo(f"refbridge: fixed {applied}", err=True)
    if run.found:
        click.echo(f"refbridge: {run.found} problem(s) found", err=True)
    _report(diagnostics, skip_invalid)
    if run.failing:
        sys.exit(ExitStatus.PROBLEMS)


@click.command("fmt")
@click.argument("inputs", nargs=-1, required=True, metavar="LIB...")
@click.option("-o", "--output", metavar="FILE",
              help="Write the formatted file here (one input only); default: in place.")
@click.option("--check", is_flag=True,
              help="Change nothing; list the entries that would change (exit 1 if any).")
@click.option("--diff", is_flag=True, help="Change nothing; show a unified diff.")
@click.option("--sort", metavar="ORDER",
              help="Entries by key, type, year or given (as in the file; the default); "
                   "-year: newest first.")
@click.option("--field-order", metavar="ORDER",
              help="Fields as-given (default), canonical, or LIST: these first.")
@click.option("--indent", metavar="N|tab", help="Indentation of fields (default: 2 spaces).")
@click.option("--align/--no-align", default=None, help="Align the = of an entry (default).")
@click.option("--values", type=click.Choice(["braces", "quotes"]),
              help="Delimit values with braces (default) or quotes.")
@click.option("--drop-empty/--keep-empty", default=None,
              help="Drop empty fields (default: keep them).")
@click.option("--months/--no-months", default=None,
              help="Write months spelled out in full as macros (month = mar).")
@click.option("--unicode/--latex", default=None,
              help="Accented letters as UTF-8, or as LaTeX commands (default: as written).")
@click.option("--wrap", type=click.IntRange(0), metavar="N",
              help="Wrap long values at N characters (0: never, the default).")
@click.option("--key-pattern", metavar="PATTERN",
              help="Rename keys that do not follow PATTERN (see Citation keys).")
@click.option("--abbreviate-journals/--unabbreviate-journals", "journals", default=None,
              help="Journals as ISO 4 abbreviations, or written out (each change reported; "
                   "exit 3).")
@click.option("--encoding", metavar="NAME",
              help="Input encoding (default: BOM, UTF-8, else cp1252).")
@handle_errors
def fmt_command(inputs: tuple[str, ...], output: str | None, check: bool, diff: bool,
                encoding: str | None, **given: Any) -> None:
    """Format .bib files in place, keeping comments, @string, @preamble and every field.
    Settings also come from [tool.refbridge.fmt] in pyproject.toml or [fmt] in
    .refbridge.toml (the command line wins)."""
    from refbridge.tidy.files import CHECK, DIFF, WRITE, tidy_files

    if output is not None and len(inputs) > 1:
        raise click.UsageError("-o names one output: give one input with it")
    settings = {name: value for name, value in given.items() if value is not None}
    mode = CHECK if check else DIFF if diff else WRITE
    report = tidy_files(list(inputs), settings, mode, output, encoding)
    for line in report.output:
        click.echo(line, nl=not line.endswith("\n"))
    for message in report.messages:
        click.echo(str(message), err=True)
    verb = "would change" if mode != WRITE else "changed"
    click.echo(f"refbridge: fmt: {len(report.changed)} of {report.files} file(s) {verb}",
               err=True)
    if report.failed or check and report.changed:
        sys.exit(ExitStatus.FAILED)
    if report.told and mode == WRITE:
        sys.exit(ExitStatus.SKIPPED)  # journals changed or left: written, but the user must know


@click.command("cited")
@click.argument("documents", nargs=-1, required=True, metavar="DOC...")
@click.option("--library", "libraries", multiple=True, metavar="LIB",
              help="A library to take the entries from; repeatable (default: the libraries "
                   "the documents name).")
@click.option("-o", "--output", default="-", show_default=True, metavar="FILE",
              help="Output file; - for standard output.")
@click.option("--to", "to_format", metavar="FORMAT",
              help="Output format (default: a .bib in the documents' dialect, else the "
                   "output file's).")
@click.option("--order", type=click.Choice(["cited", "library"]), default="cited",
              show_default=True, help="Entries first cited first, or in the library's order.")
@click.option("--unused", is_flag=True, help="Also list the library entries nothing cites.")
@click.option("--allow-missing", is_flag=True,
              help="Exit 0 even when cited keys are in no library (they are still reported).")
@click.option("--unicode", is_flag=True, help="LaTeX outputs: UTF-8 instead of LaTeX commands.")
@click.option("--from", "from_format", metavar="FORMAT",
              help="Library format (default: detected from name and content).")
@click.option("--encoding", metavar="NAME",
              help="Encoding of documents and libraries (default: BOM, UTF-8, else cp1252).")
@click.option("--strict", is_flag=True, help="Stop at the first broken library entry.")
@click.option("--skip-invalid", is_flag=True,
              help="Exit 0 even if broken library entries were skipped.")
@handle_errors
def cited_command(documents: tuple[str, ...], libraries: tuple[str, ...], output: str,
                  to_format: str | None, order: str, unused: bool, allow_missing: bool,
                  unicode: bool, from_format: str | None, encoding: str | None, strict: bool,
                  skip_invalid: bool) -> None:
    """Write the library entries DOC files cite (.aux, .bcf, .tex, .md, .Rmd, .qmd), with
    the crossref, xdata and @set entries they need; report keys no library holds."""
    from refbridge.cited import CitedOptions, write_cited
    from refbridge.registry import WriteOptions
    from refbridge.runs import ReadOptions

    report = write_cited(documents, output, CitedOptions(
        libraries, order, to_format, ReadOptions(from_format, encoding),
        WriteOptions(unicode=unicode), strict))
    for record, field, key in report.selection.unresolved:
        click.echo(f"{record.source or 'refbridge'}: warning: entry {record.citation_key!r} "
                   f"names {field} {key!r}, which no library holds", err=True)
    for missing in report.selection.missing:
        click.echo(str(missing), err=True)
    if unused:
        for record in report.selection.unused:
            click.echo(f"{record.source or 'refbridge'}: note: {record.citation_key!r} is "
                       "cited by no document", err=True)
    click.echo(f"refbridge: cited: {report.summary()}", err=True)
    _report(report.diagnostics, skip_invalid)
    if report.selection.missing and not allow_missing:
        sys.exit(ExitStatus.MISSING)
