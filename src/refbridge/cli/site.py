"""The ``site`` command: a page per work for a static site. It parses its options and calls
the library; nothing more."""

from __future__ import annotations

import click

from refbridge.cli.options import input_options
from refbridge.cli.reporting import _report, handle_errors


def _link_overrides(links: tuple[str, ...], links_file: str | None) -> dict[str, str]:
    """``--links-file`` then ``--link KIND=FIELD`` options as one mapping."""
    from refbridge.site.links import read_link_file

    overrides = read_link_file(links_file) if links_file else {}
    for text in links:
        kind, equals, source = text.partition("=")
        if not equals or not kind.strip():
            raise click.BadParameter(f"{text!r} is not KIND=FIELD", param_hint="--link")
        overrides[kind.strip()] = source.strip()
    return overrides


@click.command("site")
@input_options
@click.option("--to", "generator", required=True, metavar="GENERATOR",
              help="hugo (Hugo Blox: content/publication/SLUG/), jekyll (academicpages: "
                   "_publications/) or html (standalone pages: publication/SLUG/).")
@click.option("-o", "--output", "directory", required=True, metavar="DIR",
              help="The site's folder (its root: content/ or _publications/ go inside).")
@click.option("--owner", "owners", multiple=True, metavar="NAME",
              help="Your name (Hugo Blox: written as the author 'admin'; academicpages: in "
                   "bold); repeatable.")
@click.option("--owner-id", "owner_ids", multiple=True, metavar="SCHEME:ID",
              help="Your identifier (orcid:..., dblp:...); repeatable.")
@click.option("--style", default="apa", show_default=True, metavar="STYLE",
              help="Style of the formatted citation (academicpages' `citation`).")
@click.option("--style-dir", "style_dirs", multiple=True, metavar="DIR",
              help="Folder of your own styles; repeatable.")
@click.option("--locale", metavar="xx-XX", help="Locale of the citation (default: the style's).")
@click.option("--link", "links", multiple=True, metavar="KIND=FIELD",
              help="Take the KIND link (pdf, code, slides, video, dataset, poster, preprint, "
                   "source) from FIELD of the records; KIND= for none; repeatable.")
@click.option("--links-file", metavar="FILE.toml",
              help='A [links] table of kind = "field" lines (--link wins).')
@click.option("--prune", is_flag=True,
              help="Remove the pages of works that are no longer in the inputs.")
@click.option("--since", type=int, metavar="YEAR", help="Only records from this year on.")
@click.option("--until", type=int, metavar="YEAR", help="Only records up to this year.")
@click.option("--type", "kinds", multiple=True, metavar="TYPE",
              help="Only this type (as `refbridge cv --type`); repeatable.")
@click.option("--no-merge", is_flag=True, help="Keep duplicates found across the inputs.")
@click.option("--all-records", is_flag=True,
              help="A page for every record, also those that do not name the owner.")
@handle_errors
def site_command(inputs: tuple[str, ...], from_format: str | None, encoding: str | None,
                 strict: bool, skip_invalid: bool, generator: str, directory: str,
                 owners: tuple[str, ...], owner_ids: tuple[str, ...], style: str,
                 style_dirs: tuple[str, ...], locale: str | None, links: tuple[str, ...],
                 links_file: str | None, prune: bool, since: int | None, until: int | None,
                 kinds: tuple[str, ...], no_merge: bool, all_records: bool) -> None:
    """Write one page per work of INPUT files for a Hugo Blox, academicpages or plain HTML
    site, keeping the pages' bodies and what did not change."""
    from refbridge.cv import Filters
    from refbridge.names.ids import PersonIdError, parse_person_id
    from refbridge.runs import ReadOptions
    from refbridge.site import SiteOptions, write_site

    try:
        ids = tuple(parse_person_id(text) for text in owner_ids)
    except PersonIdError as exc:
        raise click.BadParameter(str(exc), param_hint="--owner-id") from None
    options = SiteOptions(generator, owners, ids, style, style_dirs, locale,
                          _link_overrides(links, links_file), prune, merge=not no_merge,
                          all_records=all_records, filters=Filters(since, until, kinds))
    report = write_site(list(inputs), directory, options, ReadOptions(from_format, encoding),
                        strict=strict)
    for line in [*report.merge.describe(), *report.describe()]:
        click.echo(f"refbridge: site: {line}", err=True)
    _report(report.diagnostics, skip_invalid)
