"""Helpers of the ``refbridge serve`` tests: the real server on an ephemeral port of
127.0.0.1, serving an invented library, and a pick answered through the picker page's own
request instead of a browser."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from refbridge.enrich import EnrichOptions
from refbridge.errors import Diagnostics
from refbridge.serve.library import Library
from refbridge.serve.server import Served, serve_in_thread

__all__ = ["GROUPED", "LIBRARY", "Running", "Served", "rpc", "running", "serve_in_thread"]

LIBRARY = """\
@article{hartmann2021,
  author = {Hartmann, Ilse and Okafor, Chidi},
  title = {Tidal Mixing in Shallow Estuaries},
  journal = {Journal of Coastal Studies},
  year = {2021},
  volume = {14},
  pages = {201--219},
  doi = {10.5555/jcs.2021.014},
}

@book{lindqvist2018,
  author = {Lindqvist, Maja},
  title = {Salt and Silt},
  publisher = {Nordhavn Press},
  address = {Aarhus},
  year = {2018},
}

@misc{hostile,
  author = {Mallory, Eve},
  title = {<script>alert(1)</script>},
  year = {2020},
}
"""


#: Two entries of JabRef static groups ("Marine", "Kelp").
MARINE_BIBLATEX = """\
@article{ferreira2022,
  author = {Ferreira, Lúcia},
  title = {Kelp Canopies and Light},
  journal = {Marine Letters},
  year = {2022},
  groups = {Marine, Kelp},
}

@book{ode2019,
  author = {Ode, Bjørn},
  title = {Salt Marshes},
  publisher = {Fjord Press},
  year = {2019},
  groups = {Marine},
}
"""
#: A .bib saved by JabRef: entries in static groups, and the group tree.
GROUPED = MARINE_BIBLATEX + r"""
@misc{quist2021,
  author = {Quist, Hanna},
  title = {Field Notes},
  year = {2021},
  groups = {Unsorted},
}

@Comment{jabref-meta: grouping:
0 AllEntriesGroup:;
1 StaticGroup:Marine\;0\;1\;0x8a8a8aff\;\;\;;
2 StaticGroup:Kelp\;0\;1\;0x8a8a8aff\;\;\;;
1 KeywordGroup:Reviews\;0\;keywords\;review\;0\;0\;1\;0x8a8a8aff\;\;\;;
}
"""


@dataclass
class Running:
    """A server running on a free port, and the pages it asked to open."""

    served: Served
    opened: list[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.served.port}"

    @property
    def token(self) -> dict[str, str]:
        return {"X-Refbridge-Token": self.served.token}

    def next_opened(self, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while not self.opened:
            assert time.monotonic() < deadline, "no picker page was opened"
            time.sleep(0.02)
        return self.opened.pop(0)

    def cayw(self, query: str, citations: list[dict[str, Any]] | None,
             posted: dict[str, Any] | None = None) -> httpx.Response:
        """``GET /better-bibtex/cayw?QUERY`` (a POST of the JSON ``posted`` when given),
        answered by posting ``citations`` (None: cancel) from the picker page it opened, as
        the page's own script does."""
        address = f"{self.base}/better-bibtex/cayw?{query}"
        answers: list[httpx.Response] = []
        waiting = threading.Thread(target=lambda: answers.append(
            httpx.get(address, timeout=30) if posted is None
            else httpx.post(address, json=posted, timeout=30)))
        waiting.start()
        page = self.next_opened()
        assert httpx.get(page).status_code == 200
        body = {"cancel": True} if citations is None else {"citations": citations}
        posted = httpx.post(page.split("?")[0], json=body, headers=self.token)
        assert posted.status_code == 200, posted.text
        waiting.join(30)
        return answers[0]


@contextmanager
def running(tmp_path: Path, text: str = LIBRARY, pick_timeout: float = 30.0,
            services: EnrichOptions | None = None, state_file: Path | None = None,
            reported: list[str] | None = None) -> Iterator[Running]:
    """The server serving ``text`` (a .bib) until the block ends; its look-ups ask the
    services as ``services`` say (by default: offline, from an empty cache); with
    ``state_file``, what it keeps between runs restored from there (its reports appended to
    ``reported``)."""
    path = tmp_path / "library.bib"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    library = Library()
    library.read_paths([str(path)], Diagnostics())
    services = services or EnrichOptions(offline=True, cache_dir=tmp_path / "cache")
    state = Running(Served(library, lambda url: None, services, pick_timeout=pick_timeout,
                           report=(reported if reported is not None else []).append,
                           state_file=state_file))
    state.served.opener = state.opened.append
    server = serve_in_thread(state.served)
    state.served.restore()
    try:
        yield state
    finally:
        state.served.shelf.autoexports.close()
        server.shutdown()
        server.server_close()


def rpc(server: Running, method: str, *params: Any, request_id: int = 1) -> Any:
    """The answer to a JSON-RPC request of ``method`` with ``params`` by position."""
    answer = httpx.post(f"{server.base}/better-bibtex/json-rpc",
                        json={"jsonrpc": "2.0", "method": method, "params": list(params),
                              "id": request_id})
    assert answer.status_code == 200
    return answer.json()
