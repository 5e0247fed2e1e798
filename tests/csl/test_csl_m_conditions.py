"""CSL-M conditions as citeproc-js tests them: a cs:if holding cs:conditions, each
cs:condition a test of its own matched into one (all, any, none), and the match "nand"
(not all). Each expected string is what citeproc-js writes for the same style and cites."""

from __future__ import annotations

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle

CONDITIONS = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
  <info><id>conditions</id><title>Conditions</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; ">
      <group delimiter=" ">
        <text variable="title"/>
        <choose>
          <if>
            <conditions match="all">
              <condition type="article-journal" variable="volume issue" match="all"/>
              <condition is-numeric="volume issue" match="nand"/>
            </conditions>
            <text value="(odd numbering)"/>
          </if>
          <else-if>
            <conditions match="any">
              <condition type="book" variable="edition" match="all"/>
              <condition variable="author" match="none"/>
            </conditions>
            <text value="(edition or anonymous)"/>
          </else-if>
          <else><text value="(plain)"/></else>
        </choose>
      </group>
    </layout>
  </citation>
</style>""")
ITEMS = [{"id": "supplement", "type": "article-journal", "title": "Tides", "volume": "Supplement", "issue": "1",
          "author": [{"family": "Low"}]},
         {"id": "numbered", "type": "article-journal", "title": "Reefs", "volume": "2", "issue": "4",
          "author": [{"family": "Low"}]},
         {"id": "edition", "type": "book", "title": "Dunes", "edition": "5", "author": [{"family": "Low"}]},
         {"id": "anonymous", "type": "book", "title": "Sagas"}]


def cite(key: str) -> str:
    return make_processor(CONDITIONS, ITEMS).cite([{"id": key}])


def test_all_conditions_with_nand_one_not_numeric() -> None:
    assert cite("supplement") == "Tides (odd numbering)"


def test_nand_fails_when_all_are_numeric() -> None:
    assert cite("numbered") == "Reefs (plain)"


def test_any_condition_passes_by_its_first() -> None:
    assert cite("edition") == "Dunes (edition or anonymous)"


def test_any_condition_passes_by_a_none_match() -> None:
    assert cite("anonymous") == "Sagas (edition or anonymous)"


def test_context_tells_a_citation_from_the_bibliography() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
      <info><id>context</id><title>Context</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <macro name="entry">
        <group delimiter=" ">
          <text variable="title"/>
          <choose>
            <if context="citation"><text value="(cited)"/></if>
            <else-if context="bibliography"><text value="(listed)"/></else-if>
          </choose>
        </group>
      </macro>
      <citation><layout delimiter="; "><text macro="entry"/></layout></citation>
      <bibliography><layout><text macro="entry"/></layout></bibliography>
    </style>""")
    proc = make_processor(style, [{"id": "atlas", "type": "book", "title": "Atlas"}])
    assert (proc.cite([{"id": "atlas"}]), proc.bibliography()) == ("Atlas (cited)", ["Atlas (listed)"])


def test_a_hereinafter_for_an_ambiguous_item_cited_again() -> None:
    style = CslStyle.from_xml("""<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.1mlz1">
      <info><id>backref</id><title>Backref</title><updated>2026-01-01T00:00:00+00:00</updated></info>
      <citation>
        <layout delimiter="; ">
          <choose>
            <if position="first">
              <group delimiter=" ">
                <group delimiter=", "><names variable="author"><name/></names><text variable="title"/></group>
                <choose>
                  <if disambiguate="check-ambiguity-and-backreference">
                    <text variable="title" form="short" prefix="[hereinafter " suffix="]"/>
                  </if>
                </choose>
              </group>
            </if>
            <else>
              <group delimiter=", ">
                <names variable="author"><name form="short"/></names>
                <choose><if disambiguate="true"><text variable="title" form="short"/></if></choose>
                <text value="supra"/>
              </group>
            </else>
          </choose>
        </layout>
      </citation>
    </style>""")
    doe = [{"family": "Doe", "given": "John"}]
    items = [{"id": "tides", "type": "book", "title": "Tides: A History", "title-short": "Tides", "author": doe},
             {"id": "reefs", "type": "book", "title": "Reefs: A Survey", "title-short": "Reefs", "author": doe},
             {"id": "dunes", "type": "book", "title": "Dunes", "author": [{"family": "Roe", "given": "Jane"}]}]
    cited = make_processor(style, items).cite_clusters([[{"id": "tides"}, {"id": "reefs"}], [{"id": "dunes"}],
                                                        [{"id": "tides"}]])
    # (Reefs, ambiguous too, is cited once: no hereinafter)
    assert cited == ["John Doe, Tides: A History [hereinafter Tides]; John Doe, Reefs: A Survey", "Jane Roe, Dunes",
                     "Doe, Tides, supra"]
