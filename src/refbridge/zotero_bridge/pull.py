"""Reading a Zotero library as records: ``refbridge pull``, and a library address as the input of
every command that reads (``refbridge cv zotero-desktop:Reading``).

The library's items come through its ``mirror`` (only what changed since the last read is
fetched) and become records through ``items``, in the order they were added to the library;
a Zotero database read as a file (``zotero-sqlite:``) gives the same item JSON through
``sqlite``, and the same records.
Attachments, annotations and standalone notes are not records: a database's files go with
their item (the ``file`` field of a .bib), how many of the rest there were is said once.
``pull`` is the whole command: the key lock taken, the library read, the output written
atomically (``gather.write_keyed``), what was written said. This module must never write a
file itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from refbridge.errors import Diagnostics
from refbridge.formats.zotero.items import Skipped, records_of_items
from refbridge.model import Record
from refbridge.zotero_bridge.address import (
    DatabaseAddress,
    LibraryAddress,
    api_key,
    parse_address,
)
from refbridge.zotero_bridge.mirror import LibraryMirror, Progress, default_cache_file

if TYPE_CHECKING:
    from refbridge.registry import WriteOptions


def library_records(address: LibraryAddress, diagnostics: Diagnostics,
                    progress: Progress | None = None) -> Iterator[Record]:
    """The records of the library (or collection) at ``address``."""
    with address.client(api_key(required=False)) as client:
        mirror = LibraryMirror(client, address, default_cache_file(address))
        mirror.refresh(progress)
    skipped = Skipped()
    for _, record in records_of_items(mirror.ordered_items(), str(address), diagnostics,
                                      skipped):
        yield record
    if skipped.counts:
        diagnostics.warning(f"not records, not read: {skipped.describe()}", str(address))


def database_records(address: DatabaseAddress, diagnostics: Diagnostics) -> Iterator[Record]:
    """The records of the library (or collection) of a Zotero database read as a file."""
    from refbridge.zotero_bridge.sqlite import open_database, ordered, storage_of

    with open_database(address.path, diagnostics) as database:
        scope = database.scope(address.library, address.collection)
        stamps = database.stamps(scope)
        items = ordered(database.items(scope, (s.item_id for s in stamps.values())))
    skipped = Skipped()
    for _, record in records_of_items(items, str(address), diagnostics, skipped,
                                      storage_of(address.path)):
        yield record
    if skipped.counts:
        diagnostics.warning(f"not records, not read: {skipped.describe()}", str(address))


def read_address(text: str, diagnostics: Diagnostics) -> Iterator[Record]:
    """The records of an input that names a library (``zotero-web:user:1/Reading``,
    ``zotero-sqlite:~/Zotero/zotero.sqlite``)."""
    address = parse_address(text)
    if isinstance(address, DatabaseAddress):
        yield from database_records(address, diagnostics)
    else:
        yield from library_records(address, diagnostics)


def pull(address: LibraryAddress | DatabaseAddress, output: str, to_format: str,
         options: WriteOptions, key_lock: str | None, diagnostics: Diagnostics,
         say: Callable[[str], None], progress: Progress | None = None) -> int:
    """``refbridge pull``: the library at ``address`` written to ``output`` in ``to_format``,
    its keys given and filed by the key lock ``key_lock`` names (else the one beside
    ``output``); what went wrong or was changed goes to ``diagnostics``, the count written is
    said through ``say``. (Imported only here: an address read as any command's input needs
    none of it.)"""
    from refbridge.gather import write_keyed
    from refbridge.keylock import open_lock

    records = database_records(address, diagnostics) \
        if isinstance(address, DatabaseAddress) else \
        library_records(address, diagnostics, progress)
    lock = open_lock(key_lock, output)
    written = write_keyed(records, output, to_format,
                          replace(options, key_lock=lock, diagnostics=diagnostics))
    say(f"refbridge: pull: {written} record(s) from {address}")
    return written
