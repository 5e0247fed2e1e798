"""The library and the services of the verification tests: a .bib of eight entries, one for
each verdict, and the local services (tests/enrich_support.py) knowing their works."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from enrich_support import FixtureData, FixtureServer, serving

LIBRARY = """\
% Library of the verification tests
@string{tods = {ACM Transactions on Database Systems}}

@article{lin2022index,
  title = {Learned Index Structures for Spatial Joins},
  author = {Lin, Mei and Verma, Rahul},
  journal = tods,
  year = {2022},
  volume = {47},
  pages = {233--247},
  doi = {10.1145/3514221.3517850},
}

@article{baker2021butterflies,
  title = {Fast Approximate Counting of Butterflies in Bipartite Streams},
  author = {Baker, Hannah},
  journal = {Journal of Computer and System Sciences},
  year = {2021},
  doi = {10.1016/j.jcss.2021.04.002},
}

@article{rossi2020cqa,
  title = {Consistent Query Answering over Inconsistent Graph Databases},
  author = {Rossi, Giulia and Ferreira, Tom{\\'a}s},
  journal = {The VLDB Journal},
  year = {2020},
  doi = {10.1007/s00778-020-00612-9},
}

@inproceedings{okafor2018sampling,
  title = {Adaptive Sampling for Approximate Graph Pattern Mining},
  author = {Okafor, Chidi and Silva, Ana},
  booktitle = {ICDE},
  year = {2018},
  pages = {1310--1322},
  doi = {10.1109/ICDE.2019.00117},
}

@article{novak2024quantum,
  title = {Quantum Speedups for Relational Join Processing},
  author = {Nov{\\'a}k, Petr},
  journal = {Journal of Imaginary Databases},
  year = {2024},
  doi = {10.9999/jid.2024.0042},
}

@misc{qian2023truss,
  title     = {Higher-Order Truss Decomposition in Graphs},
  author    = {Qian, Zhengping and Wang, Chenhao and Li, Rong-Hua},
  year      = {2023},
  eprint    = {2301.01234},
  archivePrefix = {arXiv},
  primaryClass  = {cs.DB},
  note      = {Extended version},
}

@misc{lin2024stream,
  title = {Streaming Graph Partitioning with Bounded Memory},
  author = {Lin, Mei and Baker, Oliver},
  year = {2024},
  eprint = {2402.05555},
  archivePrefix = {arXiv},
}

@misc{silva2023roads,
  title = {Road Network Snapshots of {Lisbon}, 2015--2022},
  author = {Silva, Ana},
  year = {2023},
  publisher = {Zenodo},
  doi = {10.5281/zenodo.7654321},
}
"""


def write_library(directory: Path) -> Path:
    path = directory / "refs.bib"
    path.write_bytes(LIBRARY.encode("utf-8"))
    return path


@contextmanager
def verify_services() -> Iterator[FixtureServer]:
    with serving(FixtureData("../verify/arxiv.atom", "../verify/crossref.json",
                             "../verify/openalex.json", "verify/dblp.json",
                             "verify/datacite.json")) as server:
        yield server
