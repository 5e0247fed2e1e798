"""Two readers of one text stream: what one reads first waits for the other, so ``check``
reads a .bib once and gives it both to its reader (the records) and to the tokenizer (the
entries as written), in step. Memory holds only what one reader is ahead of the other. This
module must never parse a format.
"""

from __future__ import annotations

import io
from collections import deque
from typing import TextIO, cast


class Tee:
    """The stream and, for each reader, the chunks the other has read and it has not."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.waiting: tuple[deque[str], deque[str]] = (deque(), deque())
        self.ended = False

    def read(self, reader: int, size: int) -> str:
        own = self.waiting[reader]
        if own:
            return own.popleft()
        if self.ended:
            return ""
        chunk = self.stream.read(size)
        if chunk:
            self.waiting[1 - reader].append(chunk)
        else:
            self.ended = True
        return chunk

    def readers(self) -> tuple[TextIO, TextIO]:
        return cast(TextIO, _Reader(self, 0)), cast(TextIO, _Reader(self, 1))


class _Reader(io.TextIOBase):
    """One reader's view of a ``Tee``."""

    def __init__(self, tee: Tee, reader: int) -> None:
        super().__init__()
        self.tee = tee
        self.reader = reader

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0:
            return "".join(iter(lambda: self.tee.read(self.reader, 1 << 20), ""))
        return self.tee.read(self.reader, size)
