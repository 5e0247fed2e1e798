"""The work of ``refbridge fetch``: each target's publication list fetched (``run``), one after
the other, then written together to one output with the key lock's keys, atomically
(``gather.write_keyed``).

What each fetch found is said through ``say``, and each page read through ``on_page``
(a progress display), so this module never prints itself and never exits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from refbridge.errors import Diagnostics
from refbridge.fetch.run import fetch_records
from refbridge.fetch.targets import Target
from refbridge.gather import write_keyed
from refbridge.keylock import open_lock
from refbridge.model import Record
from refbridge.registry import WriteOptions
from refbridge.services.settings import ClientOptions


def fetch_to_file(targets: Sequence[Target], output: str, to_format: str,
                  options: ClientOptions, key_lock: str | None, diagnostics: Diagnostics,
                  say: Callable[[str], None],
                  on_page: Callable[[Target, int], None] | None = None) -> int:
    """The publication lists of ``targets`` written to ``output`` in ``to_format``, their
    keys given and filed by the key lock ``key_lock`` names (else the one beside
    ``output``); the count written."""
    records: list[Record] = []
    for target in targets:
        found = fetch_records(target, options, diagnostics,
                              on_page=None if on_page is None else partial(on_page, target))
        say(f"refbridge: fetch: {target}: {len(found)} record(s)")
        records.extend(found)
    lock = open_lock(key_lock, output)
    return write_keyed(records, output, to_format, WriteOptions(key_lock=lock),
                       diagnostics=diagnostics)
