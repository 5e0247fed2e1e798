"""Records to and from the objects of other Python bibliography libraries: bibtexparser v2's
``Library`` and pybtex's ``BibliographyData``.

Both go through .bib text, which keeps more than a field-by-field copy would: the text is
what the library itself writes (values with their braces and LaTeX as they are, bare macros
such as ``month = may``, ``@string`` and ``@preamble``; for pybtex, see
``refbridge.formats.bibtex.pybtex_text``), read by refbridge's BibTeX reader
(names, case protection, LaTeX into rich text, macros expanded); the other way, refbridge's
BibTeX writer writes the records and the library parses that. bibtexparser and pybtex are imported
only when these functions are called. This module must never read or write a .bib itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from refbridge.api import ReadResult, read, write
from refbridge.model import Record
from refbridge.registry import WriteOptions

if TYPE_CHECKING:
    from bibtexparser.library import Library
    from pybtex.database import BibliographyData

#: The name the .bib text of a converted library has in messages.
BIBTEXPARSER_SOURCE = "<bibtexparser Library>"
PYBTEX_SOURCE = "<pybtex BibliographyData>"
#: The bibtexparser metadata key under which its RemoveEnclosingMiddleware records, per
#: field, the braces or quotes it removed (``no-enclosing`` for a bare number or macro).
REMOVED_ENCLOSING = "removed_enclosing"


def from_bibtexparser(library: Library, *, strict: bool = False) -> ReadResult:
    """The records of a bibtexparser v2 ``Library``, read from the .bib text it writes.

    Each block is written as it was parsed: values whose braces or quotes bibtexparser's
    default parse stack removed get them back, values of a library parsed without that
    middleware are written as they are, bare macros stay bare. Names split by bibtexparser's
    name middlewares are merged back first.

    >>> import bibtexparser
    >>> library = bibtexparser.parse_string("@misc{k, title = {A {DNA} title}, month = may}")
    >>> [(r.citation_key, r.title) for r in from_bibtexparser(library)]
    [('k', 'A DNA title')]
    """
    from bibtexparser.entrypoint import write_string
    from bibtexparser.library import Library

    texts = [write_string(Library([block]), unparse_stack=_unparse_stack(block))
             for block in library.blocks]
    return read(text="\n".join(texts), format="bibtex", name=BIBTEXPARSER_SOURCE,
                strict=strict)


def _unparse_stack(block: Any) -> list[Any]:
    """The bibtexparser middlewares that write ``block`` back as it was parsed: names split
    into parts or lists merged back, removed braces and quotes put back."""
    from bibtexparser.middlewares import (
        AddEnclosingMiddleware,
        MergeCoAuthors,
        MergeNameParts,
        NameParts,
    )

    values = [field.value for field in getattr(block, "fields", ())]
    lists = [value for value in values if isinstance(value, list)]
    stack: list[Any] = []
    if any(isinstance(part, NameParts) for value in lists for part in value):
        stack.append(MergeNameParts(allow_inplace_modification=False))
    if lists:
        stack.append(MergeCoAuthors(allow_inplace_modification=False))
    if REMOVED_ENCLOSING in block.parser_metadata:
        stack.append(AddEnclosingMiddleware(allow_inplace_modification=False,
                                            reuse_previous_enclosing=True,
                                            default_enclosing="{", enclose_integers=False))
    return stack


def to_bibtexparser(records: Iterable[Record],
                    options: WriteOptions | None = None) -> Library:
    """A bibtexparser v2 ``Library`` (parsed with its default parse stack: braces removed,
    ``@string`` macros resolved, bare month macros kept) of the .bib refbridge's BibTeX writer
    writes for ``records``.

    >>> found = read(text="@misc{k, title = {A {DNA} title}, year = 2024, month = may}",
    ...              format="bibtex")
    >>> entry = to_bibtexparser(found).entries[0]
    >>> entry.entry_type, entry["title"], entry["month"]
    ('misc', 'A {DNA} title', 'may')
    """
    from bibtexparser.entrypoint import parse_string

    return parse_string(write(records, format="bibtex", options=options))


def from_pybtex(data: BibliographyData, *, strict: bool = False) -> ReadResult:
    """The records of a pybtex ``BibliographyData``, read from the .bib text pybtex writes
    (its persons as ``von Last, Jr, First``, its fields' LaTeX as it is, its preamble).

    >>> from pybtex.database import parse_string
    >>> data = parse_string("@book{k, author = {van Dyke, Jr., Ann}, title = {T}}", "bibtex")
    >>> [(name.family, name.non_dropping_particle) for name in from_pybtex(data)[0].authors]
    [('Dyke', 'van')]
    """
    from refbridge.formats.bibtex.pybtex_text import pybtex_bib_text

    text = pybtex_bib_text(data.entries.items(), data.preamble)
    return read(text=text, format="bibtex", name=PYBTEX_SOURCE, strict=strict)


def to_pybtex(records: Iterable[Record], options: WriteOptions | None = None
              ) -> BibliographyData:
    """A pybtex ``BibliographyData`` of the .bib refbridge's BibTeX writer writes for
    ``records`` (pybtex expands macros such as ``may`` as it parses).

    >>> found = read(text="@misc{k, title = {A {DNA} title}, year = 2024}", format="bibtex")
    >>> to_pybtex(found).entries["k"].fields["title"]
    'A {DNA} title'
    """
    from pybtex.database import parse_string

    parsed: Any = parse_string(write(records, format="bibtex", options=options), "bibtex")
    data: BibliographyData = parsed
    return data
