"""citeproc-js's own CSL-M fixtures (its ``fixtures/local``) for the legal and
citation-level CSL-M behaviour: parallel citations, group conditions, narrative citations,
locators, positions, consolidation. Each is read at run time from a clone of citeproc-js
(``$REFBRIDGE_CITEPROC_JS``, a bare git repository; by default the one beside the shared
material) and rendered as ``refbridge.csl.conformance`` does; the test is skipped when the
clone is not there."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from refbridge.csl.conformance import _normalize, parse_fixture, render_fixture
from refbridge.csl.localization import LocaleStore

MIRROR = Path(os.environ.get("REFBRIDGE_CITEPROC_JS", "/work/.mirror/Juris-M+citeproc-js/repo"))
#: the fixtures this behaviour makes pass (each one rendered exactly as citeproc-js)
FIXTURES = [
    "api_SuppressAuthor",
    "bugreports_ArabicApostropheCrash",
    "bugreports_ArabicLevelMismatch",
    "bugreports_JapaneseCaseCites",
    "bugreports_TwoCitesPlusOneBackref",
    "condition_PlusMinus",
    "consolidation_ChapterItemBibliographySubsequent",
    "consolidation_ChapterItemConsolidation",
    "consolidation_ChapterItemCount",
    "consolidation_LegalItemConsolidation",
    "consolidation_TwoStageChapterSubsequent",
    "consolidation_TwoStateFirstRef",
    "disambiguate_WithConsolidation",
    "discretionary_AuthorDateAuthorOnlyThenSuppressAuthor",
    "discretionary_AuthorOnly",
    "discretionary_AuthorOnlySuppressLocator",
    "discretionary_CitationNumberAuthorOnlyThenSuppressAuthor",
    "discretionary_CitationNumberAuthorOnlyThenSuppressAuthorWithIntext",
    "discretionary_ExampleProcess",
    "discretionary_ExampleSeveralAuthorsWithIntext",
    "discretionary_ExampleUnauthored",
    "discretionary_FirstReferenceNumberWithIntext",
    "discretionary_IbidInAuthorDateStyleWithIntext",
    "discretionary_IbidInAuthorDateStyleWithoutIntext",
    "discretionary_IbidInNoteStyleWithIntext",
    "discretionary_NoteAuthorOnlyNoAuthorWithoutIntext",
    "discretionary_RemovalOfStubCiteCitationWithIntext",
    "discretionary_SimpleName",
    "discretionary_SingleNarrativeCitation",
    "group_PrefixParensOnGroupNoCommaSafe",
    "group_PrefixParensOnNumberNoCommaSafe",
    "group_RejectAlphaLabel",
    "group_RejectAndRequireAlphaText",
    "group_RejectAndRequireAlphaValue",
    "group_RejectCommaSafeBeginning",
    "group_RejectCommaSafeNumbersOnly",
    "group_RejectCommaSafeNumbersOnlyAfterDate",
    "group_RejectCommaSafeNumbersOnlyBeginning",
    "group_RejectCommaSafeNumbersOnlyDateInTextMacroWithAffix",
    "group_RejectCommaSafeNumbersOnlyDateWithAffix",
    "group_RejectCommaSafeNumbersOnlyDateWithAffixInNestedTextMacros",
    "group_RejectCommaSafeNumbersOnlyTwice",
    "group_RejectCommaSafeNumbersOnlyWithLabel",
    "group_RejectCommaSafeOnAffixes",
    "group_RequireAlphaLabel",
    "group_RequireCommaOnSymbolAfterNumber",
    "label_FormOverride",
    "label_FromLocator",
    "locator_LocatorExtraIbid",
    "locator_LocatorExtraIbid2",
    "locator_LocatorExtraIbid3",
    "locator_ParseDate",
    "locator_TranslationLocators",
    "name_CourtCollapse",
    "parallel_Bibliography",
    "parallel_BrokenParallel",
    "parallel_CrossCitationIbidOnInsert",
    "parallel_FrenchCaseAndComments",
    "parallel_HackedChicago",
    "parallel_JournalArticleReverse",
    "parallel_JournalArticleSimple",
    "parallel_LongParallel",
    "parallel_MatchAll",
    "parallel_NoRepeat",
    "parallel_SubsequentDiffers",
    "parallel_SuppressYearIfSuppressedInFirstCite",
    "parallel_TrailingIbid",
    "parallel_TreatiesMcGill",
    "position_NearNoteTrue",
    "position_SubsequentInTextWithNote1",
    "position_SubsequentInTextWithNote6",
    "sort_CitationUnsorted",
]


@pytest.fixture(scope="module")
def store(shared_dir: Path) -> LocaleStore:
    return LocaleStore(shared_dir / "csl")


@pytest.mark.parametrize("name", FIXTURES)
def test_citeproc_js_fixture(name: str, store: LocaleStore, tmp_path: Path) -> None:
    if shutil.which("git") is None or not MIRROR.is_dir():
        pytest.skip(f"needs a git clone of citeproc-js at {MIRROR} (REFBRIDGE_CITEPROC_JS)")
    shown = subprocess.run(["git", "--git-dir", str(MIRROR), "show", f"HEAD:fixtures/local/{name}.txt"],
                           check=False, capture_output=True, timeout=60)
    if shown.returncode != 0:
        pytest.skip(f"{name} is not in the clone at {MIRROR}")
    path = tmp_path / f"{name}.txt"
    path.write_bytes(shown.stdout)
    fixture = parse_fixture(path)
    assert _normalize(render_fixture(fixture, store)) == _normalize(fixture.result)
