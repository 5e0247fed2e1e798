"""What a conversion run is given (``ReadOptions``) and what it reports (``RunReport``).

Shared by the pipeline (``refbridge.pipeline``) and the strategies it runs a conversion with
(``refbridge.parallel``), which sit below it and must never import it. This module must never
read or write records.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refbridge.errors import Diagnostics

#: Inputs smaller than this are converted in one process (starting workers costs more); the
#: pipeline does not load the parallel strategy for them.
PARALLEL_FROM_BYTES = 2 << 20


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How inputs are read."""

    from_format: str | None = None  #: reader name; None: detect from name and content
    encoding: str | None = None  #: None: detect (BOM, UTF-8, else cp1252 with a warning)


@dataclass(slots=True)
class RunReport:
    """What a run read and wrote, and what it had to say about the input."""

    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    records_read: int = 0
    records_written: int = 0
