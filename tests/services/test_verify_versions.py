"""Where a preprint's published version is read from each service's answer: OpenAlex's
locations in a journal or conference, Crossref's ``is-preprint-of`` and ``has-preprint``
relations (answers written in the services' own shapes)."""

from __future__ import annotations

from refbridge.services import crossref, openalex
from refbridge.services.found import Version

#: An OpenAlex work for an arXiv preprint that a journal published too (abridged).
OPENALEX_PREPRINT = {
    "id": "https://openalex.org/W4313420931",
    "doi": "https://doi.org/10.48550/arxiv.2301.01234",
    "title": "Higher-Order Truss Decomposition in Graphs",
    "publication_year": 2023,
    "publication_date": "2023-01-03",
    "primary_location": {
        "landing_page_url": "https://arxiv.org/abs/2301.01234",
        "source": {"display_name": "arXiv (Cornell University)", "type": "repository"}},
    "locations": [
        {"landing_page_url": "https://arxiv.org/abs/2301.01234",
         "source": {"display_name": "arXiv (Cornell University)", "type": "repository"}},
        {"landing_page_url": "https://doi.org/10.14778/3583140.3583150",
         "source": {"display_name": "Proceedings of the VLDB Endowment", "type": "journal"}},
    ],
    "authorships": [{"author": {"display_name": "Zhengping Qian"}}],
}

#: A Crossref work message of a posted preprint that names the article it became.
CROSSREF_PREPRINT = {
    "DOI": "10.31219/osf.io/abc12", "type": "posted-content",
    "title": ["Roads and Regional Growth"],
    "author": [{"family": "Silva", "given": "Ana"}],
    "issued": {"date-parts": [[2022, 5]]},
    "relation": {"is-preprint-of": [
        {"id-type": "doi", "id": "10.1016/j.jue.2023.103541", "asserted-by": "subject"}]},
}

#: The Crossref work message of that article, which names its preprint.
CROSSREF_ARTICLE = {
    "DOI": "10.1016/j.jue.2023.103541", "type": "journal-article",
    "title": ["Roads and Regional Growth"], "container-title": ["Journal of Urban Economics"],
    "author": [{"family": "Silva", "given": "Ana"}],
    "issued": {"date-parts": [[2023, 3]]},
    "relation": {"has-preprint": [
        {"id-type": "doi", "id": "10.31219/osf.io/abc12", "asserted-by": "object"}]},
}


def test_an_openalex_preprint_names_its_journal_location_as_its_published_version() -> None:
    found = openalex.work_found(OPENALEX_PREPRINT)
    assert (found.published, found.versions) == (False, (
        Version("10.14778/3583140.3583150", "Proceedings of the VLDB Endowment",
                "openalex location"),))


def test_a_crossref_preprint_names_the_work_it_is_a_preprint_of() -> None:
    found = crossref.work_found(CROSSREF_PREPRINT)
    assert (found.published, found.versions) == (
        False, (Version("10.1016/j.jue.2023.103541", "", "crossref is-preprint-of"),))


def test_a_crossref_article_names_its_preprint() -> None:
    found = crossref.work_found(CROSSREF_ARTICLE)
    assert (found.published, found.preprints) == (True, ("10.31219/osf.io/abc12",))
