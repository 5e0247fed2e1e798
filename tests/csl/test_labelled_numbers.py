"""Number variables that start with a label abbreviation ("no. 12"), as citeproc-js reads
them for is-numeric and cs:label. Each expected string is what citeproc-js writes for the
same style and items."""

from __future__ import annotations

import pytest

from refbridge.csl import make_processor
from refbridge.csl.style import CslStyle


def cite(variable: str) -> str:
    style = CslStyle.from_xml(f"""<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>numbers</id><title>Numbers</title><updated>2026-01-01T00:00:00+00:00</updated></info>
  <locale><terms><term name="number" form="short">num.</term><term name="issue" form="short">iss.</term></terms></locale>
  <citation>
    <layout delimiter="; ">
      <group delimiter=" ">
        <choose><if is-numeric="{variable}"><text value="numeric"/></if></choose>
        <label variable="{variable}" form="short"/>
        <number variable="{variable}"/>
      </group>
    </layout>
  </citation>
</style>""")
    items = [{"id": "catalogue", "type": "report", variable: "no. 12"},
             {"id": "listing", "type": "report", variable: "Cat. no. 12"}]
    return make_processor(style, items).cite([{"id": "catalogue"}, {"id": "listing"}])


@pytest.mark.parametrize(("variable", "expected"), [("number", "numeric num. 12; num. Cat. no. 12"),
                                                   ("issue", "numeric iss. 12; iss. Cat. no. 12")])
def test_numbers_after_a_label_abbreviation_are_numeric_and_take_the_variables_label(
        variable: str, expected: str) -> None:
    # "no." abbreviates "issue"; in the number variable it stands for "number"
    assert cite(variable) == expected
