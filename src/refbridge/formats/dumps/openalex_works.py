"""Reader for OpenAlex's works as the snapshot (``data/works/updated_date=*/part_*.gz``) and
bulk exports write them: JSON Lines of work objects, gzipped or not.

Each line is one work, mapped as the OpenAlex reader of ``formats/services`` maps a work of an
API answer (``work_record``); a dump has no owner, so no record is marked as a person's. This
module must never hold more than one work of its input.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.dumps.lines import json_objects
from refbridge.formats.services.openalex import work_record
from refbridge.model import Record, Source

WHAT = "an OpenAlex work"


class OpenAlexWorksReader(catalogue.CatalogueReader):
    name = "openalex-works"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        for line, work in json_objects(stream, source, diagnostics, WHAT):
            record = work_record(work, Source(source, line), diagnostics)
            if record is not None:
                yield record


READER = OpenAlexWorksReader()
