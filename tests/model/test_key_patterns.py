"""Key patterns that give JabRef's and Better BibTeX's keys: each of JabRef's documented
pattern modifiers (``jabref:`` patterns) on invented records, and Better BibTeX's default
formula ``auth.lower + shorttitle(3,3) + year``. Agreement with JabRef's own test cases and
Better BibTeX's export fixtures is measured by ``benchmarks/key_fixtures.py`` from their
checkouts, not copied here."""

from __future__ import annotations

import io

import pytest

from refbridge.citekeys import PatternError, compile_pattern
from refbridge.errors import Diagnostics
from refbridge.model import Date, Name, Record
from refbridge.pipeline import read_stream


def entry(fields: str) -> Record:
    text = f"@article{{k, {fields}}}" if fields else "@article{k, note = {none}}"
    return next(read_stream(io.StringIO(text), text, "k.bib", Diagnostics()))


OKAFOR1 = "author = {M. Okafor}"
OKAFOR2 = "author = {M. Okafor and T. Lindqvist}"
OKAFOR3 = "author = {M. Okafor and T. Lindqvist and P. Raman}"
OKAFOR4 = "author = {M. Okafor and T. Lindqvist and P. Raman and K. Sato}"
OKAFOR5 = "author = {M. Okafor and T. Lindqvist and P. Raman and K. Sato and Lena Brandt}"
FULL1 = "author = {Marta Okafor}"
FULL2 = "author = {Marta Okafor and Tomas Lindqvist}"
FULL3 = "author = {Marta Okafor and Tomas Lindqvist and Priya Raman}"
VAN1 = "author = {Joost van den Berg}"
VAN2 = "author = {Joost van den Berg and Anouk de Vries}"
TITLES = {
    "lower": "title = {sediment transport in tidal inlets - the role of storms}",
    "brackets": "title = {{LIDAR} surveys of salt marshes: the case of erosion}",
    "cased": "title = {Coastal Dune Dynamics}",
    "upper_word": "title = {GNSS Monitoring of Coastal Subsidence}",
    "small_first": "title = {The Influence of Wave-Driven and Wind-Driven Currents on Beach "
                   "Morphology}",
    "connected": "title = {Towards Process-based Models of Barrier Islands}",
    "four_small": "title = {On the Stability of Gravel-Bed Rivers for Flood-Prone Regions }",
}
DELTA = "title = {the hiDDen life of a RIVER delta}"
SURVEY = "title = {A survey OF the tidal flats Of Europe}"
KEYWORDS = "keywords = {estuaries, salt marsh, sediment}"

#: (entry fields, JabRef pattern, the key JabRef's documented modifiers give): invented
#: records; ``benchmarks/key_fixtures.py`` measures the patterns on JabRef's own test cases.
JABREF_CASES: list[tuple[str, str, str]] = [
    ("author = {Tomas Lindqvist}", "[auth]", "Lindqvist"),
    ("author = {Anna B. Kowalczyk and Ingrid-Marie Solberg and Petra K. Holm}", "[authors3]",
     "KowalczykSolbergHolm"),
    ("author = {Tom\\'{a}\\v{s} Dvo\\v{r}\\'{a}k}", "[auth]", "Dvorak"),
    *[(f"author = {{Lena {name}}}, year = 2001", "[auth3]", key) for name, key in [
        ("Ćurić", "Cur"), ("Érdi", "Erd"), ("Òdena", "Ode"), ("Ünal", "Uen"),
        ("Al-Hashimi", "AlH")]],
    ("author = {Carla D'Amico}, year = 2001", "[auth3]", "DAm"),
    (OKAFOR5, "[auth]", "Okafor"),
    ("author = {J{\\\"u}rgens}", "[auth]", "Juergens"),
    ("", "[auth]", ""),
    ("", "[authIni4]", ""),
    (OKAFOR1, "[authIni4]", "Okaf"),
    (OKAFOR2, "[authIni4]", "OkLi"),
    (OKAFOR3, "[authIni4]", "OkLR"),
    (OKAFOR4, "[authIni4]", "OLRS"),
    (OKAFOR5, "[authIni4]", "OLRS"),
    (OKAFOR1, "[authIni1]", "O"),
    (OKAFOR1, "[authIni0]", ""),
    (OKAFOR1, "[authIni6]", "Okafor"),
    (OKAFOR1, "[authIni7]", "Okafor"),
    (FULL1, "[auth.auth.ea]", "Okafor"),
    (FULL2, "[auth.auth.ea]", "Okafor.Lindqvist"),
    (FULL3, "[auth.auth.ea]", "Okafor.Lindqvist.ea"),
    ("", "[auth.auth.ea]", ""),
    (FULL3, "[auth.etal]", "Okafor.etal"),
    (FULL2, "[auth.etal]", "Okafor.Lindqvist"),
    (FULL3, "[authEtAl]", "OkaforEtAl"),
    (FULL2, "[authEtAl]", "OkaforLindqvist"),
    (OKAFOR4, "[authshort]", "OLR+"),
    (OKAFOR3, "[authshort]", "OLR"),
    (OKAFOR2, "[authshort]", "OL"),
    (OKAFOR1, "[authshort]", "Okafor"),
    ("", "[authshort]", ""),
    (OKAFOR1, "[auth1_1]", "O"),
    (OKAFOR2, "[auth3_2]", "Lin"),
    (OKAFOR3, "[auth3_1]", "Oka"),
    (OKAFOR4, "[auth2_4]", "Sa"),
    (OKAFOR5, "[auth6_4]", "Sato"),
    (VAN1, "[auth3_1]", "Ber"),
    (VAN2, "[auth4_2]", "Vrie"),
    ("", "[auth2_4]", ""),
    *[(people, "[authForeIni]", "M") for people in (OKAFOR1, OKAFOR2, FULL1, FULL2)],
    (VAN1, "[authFirstFull]", "vandenBerg"),
    (VAN2, "[authFirstFull]", "vandenBerg"),
    (FULL1, "[authFirstFull]", "Okafor"),
    (OKAFOR1, "[authors]", "Okafor"),
    (OKAFOR2, "[authors]", "OkaforLindqvist"),
    (OKAFOR3, "[authors]", "OkaforLindqvistRaman"),
    *[(people, "[authorLast]", key) for people, key in [
        (OKAFOR1, "Okafor"), (OKAFOR3, "Raman"), (OKAFOR5, "Brandt"), (VAN2, "Vries")]],
    *[(people, "[authorLastForeIni]", key) for people, key in [
        (OKAFOR1, "M"), (OKAFOR5, "L"), (VAN2, "A")]],
    *[(people, "[authorIni]", key) for people, key in [
        (OKAFOR1, "Okafo"), (OKAFOR2, "OkafoL"), (OKAFOR5, "OkafoLRSB"), (VAN2, "BergV")]],
    ("", "[authors1]", ""),
    (OKAFOR1, "[authors1]", "Okafor"),
    (OKAFOR2, "[authors1]", "OkaforEtAl"),
    (OKAFOR4, "[authors1]", "OkaforEtAl"),
    (OKAFOR1, "[authors3]", "Okafor"),
    (OKAFOR3, "[authors3]", "OkaforLindqvistRaman"),
    (OKAFOR4, "[authors3]", "OkaforLindqvistRamanEtAl"),
    *[(TITLES[name], "[veryshorttitle]", key) for name, key in [
        ("lower", "sediment"), ("brackets", "LIDAR"), ("cased", "Coastal"),
        ("small_first", "Influence"), ("four_small", "Stability")]],
    *[(TITLES[name], "[shorttitle]", key) for name, key in [
        ("lower", "sedimenttransporttidal"), ("brackets", "LIDARsurveyssalt"),
        ("upper_word", "GNSSMonitoringCoastal"), ("small_first", "InfluenceWaveDriven"),
        ("connected", "TowardsProcessbased")]],
    *[(TITLES[name], "[camel]", key) for name, key in [
        ("lower", "SedimentTransportInTidalInletsTheRoleOfStorms"),
        ("brackets", "LIDARSurveysOfSaltMarshesTheCaseOfErosion"),
        ("connected", "TowardsProcessBasedModelsOfBarrierIslands")]],
    *[(TITLES[name], "[title]", key) for name, key in [
        ("lower", "SedimentTransportinTidalInletstheRoleofStorms"),
        ("four_small", "OntheStabilityofGravelBedRiversforFloodProneRegions")]],
    (KEYWORDS, "[keyword1]", "estuaries"),
    (KEYWORDS, "[keyword2]", "saltmarsh"),
    (KEYWORDS, "[keyword4]", ""),
    (KEYWORDS, "[keywords]", "estuariessaltmarshsediment"),
    (KEYWORDS, "[keywords2]", "estuariessaltmarsh"),
    (KEYWORDS, "[keywords55]", "estuariessaltmarshsediment"),
    ("title = {Rapid Assessment of Mangrove Health}", "[shorttitleINI]", "RAo"),
    ("title = {Rapid Assessment of `Mangrove` Health}", "[title]",
     "RapidAssessmentofMangroveHealth"),
    ("title = {The Hidden Estuary}", "[title:lower]", "thehiddenestuary"),
    (DELTA, "[title:capitalize]", "TheHiddenLifeOfARiverDelta"),
    (DELTA, "[shorttitle:capitalize]", "HiddenLifeRiver"),
    (SURVEY, "[title:titlecase]", "ASurveyoftheTidalFlatsofEurope"),
    (DELTA, "[shorttitle:titlecase]", "HiddenLifeRiver"),
    (SURVEY, "[title:sentencecase]", "Asurveyofthetidalflatsofeurope"),
    (f"{FULL1}, year = 2018, {DELTA}", "[auth:upper][year][shorttitle:capitalize]",
     "OKAFOR2018HiddenLifeRiver"),
    (f"{FULL3}, year = 2018, {DELTA}", "[authors2]_[year]_[title:capitalize]",
     "OkaforLindqvistEtAl_2018_TheHiddenLifeOfARiverDelta"),
    ("title = {Étude des récifs coralliens et de leur résilience}", "[veryshorttitle]",
     "Etude"),
    ("author = {Luc d'Ornano}, year = 2022", "[auth][year]", "dOrnano2022"),
    ("author = {Pieter van der Linden}, year = 2022", "[auth][year]", "Linden2022"),
    ("author = {Maria Costa and others}, year = 2017", "[auth][year]", "Costa2017"),
    ("author = {Ольга Смирнова}, year = 2024", "[auth][year]", "Smirnova2024"),
]


@pytest.mark.parametrize(("fields", "pattern", "key"), JABREF_CASES,
                         ids=[f"{p}-{k or 'empty'}" for _, p, k in JABREF_CASES])
def test_jabref_pattern_modifiers(fields: str, pattern: str, key: str) -> None:
    assert compile_pattern("jabref:" + pattern)(entry(fields)) == key


#: (entry fields, Better BibTeX's key under its default formula).
BBT_CASES: list[tuple[str, str]] = [
    ("author = {Knuth, Donald E.}, title = {The {\\TeX}book}, year = 1984", "knuthTeXbook1984"),
    (("author = {Lamport, Leslie}, title = {{\\LaTeX}: A Document Preparation System}, "
      "year = 1994"), "lamportLaTeXDocumentPreparation1994"),
    (("author = {M{\\\"u}ller, J{\\\"o}rg}, title = {{\\\"U}ber die Theorie der Graphen}, "
      "year = 1990"), "mullerUberTheorieGraphen1990"),
]


@pytest.mark.parametrize(("fields", "key"), BBT_CASES, ids=[k for _, k in BBT_CASES])
def test_better_bibtex_default_formula(fields: str, key: str) -> None:
    assert compile_pattern("auth.lower + shorttitle(3,3) + year")(entry(fields)) == key


def test_better_bibtex_legacy_bracket_form_gives_the_same_key() -> None:
    record = entry(BBT_CASES[0][0])
    assert compile_pattern("[auth:lower][shorttitle3_3][year]")(record) == "knuthTeXbook1984"


#: (entry fields, JabRef pattern, key): an institution that is an author is abbreviated as
#: JabRef's key generator does: a university is ``Uni`` and its name, a school or department
#: beside it the capitals of its name, anything else its words or (three or more) their
#: initials; an abbreviation given in braces wins.
INSTITUTION_CASES: list[tuple[str, str, str]] = [
    ("author = {{Tampere University}}", "[auth]", "UniTampere"),
    ("author = {{Universit{\\\"a}t G{\\\"o}ttingen}}", "[auth]", "UniGoettingen"),
    ("author = {{Tampere University, Department of Marine Biology}}", "[auth]",
     "UniTampereMB"),
    ("author = {{Tampere University, School of Applied Geology}}", "[auth]", "UniTampereAG"),
    ("author = {{Department of Coastal Survey Methods}}", "[auth]", "DCSM"),
    ("author = {{The School of Estuaries}}", "[auth]", "SchoolEstuaries"),
    ("author = {{Karlsruhe Institute of Technology}}", "[auth]", "KIT"),
    ("author = {{Coastal Observatory}}", "[auth]", "CoastalObservatory"),
    ("author = {{The Coastal Monitoring Network ({CMN})}}", "[auth]", "CMN"),
    ("author = {{Tampere University} and Marta Okafor}", "[authors]", "UniTampereOkafor"),
    ("editor = {{Karlsruhe Institute of Technology}}", "[auth]", "KIT"),
    ("author = {Marta Okafor}", "[auth]", "Okafor"),
]


@pytest.mark.parametrize(("fields", "pattern", "key"), INSTITUTION_CASES,
                         ids=[k for _, _, k in INSTITUTION_CASES])
def test_jabref_abbreviates_an_institution_that_is_an_author(fields: str, pattern: str,
                                                              key: str) -> None:
    assert compile_pattern("jabref:" + pattern)(entry(fields)) == key


def test_refbridge_patterns_keep_an_institution_whole() -> None:
    record = entry("author = {{Karlsruhe Institute of Technology}}")
    assert compile_pattern("[auth]")(record) == "KarlsruheInstituteofTechnology"


#: (entry fields, JabRef pattern, key): the ``regex``, fallback and ``abbr`` modifiers, and
#: JabRef's removal of its unwanted characters (``-`ʹ:!;?^$``) from fields and key.
MODIFIER_CASES: list[tuple[str, str, str]] = [
    ("title = {Coastal Dune Dynamics}", '[title:regex("[a-z]+","")]', "CDD"),
    (FULL2, '[authors:regex("(.)([A-Z])","$1_$2")]', "Okafor_Lindqvist"),
    (FULL2, '[authors:regex("(?<first>[A-Z])[a-z]+","${first}")]', "OL"),
    (FULL2, '[authors:regex("(.)([A-Z])","$1-$2")]', "OkaforLindqvist"),
    (FULL1, '[auth:regex("o","\\$")]', "Okafr"),
    ("title = {Tides: a Primer}", '[title:regex(":","X")]', "TidesaPrimer"),
    ("title = {Coastal Dune Dynamics}", "[title:abbr]", "CDD"),
    ("year = 2019", "[title:(untitled)]", "untitled"),
    ("title = {Coastal Dune Dynamics}", "[title:lower:(untitled)]", "coastaldunedynamics"),
    ("year = 2019", "[title:lower:(Untitled)]", "Untitled"),
    ("year = 2019", "[title:(Untitled):lower]", "untitled"),
    ("year = 2019", "[title:([journal:([YEAR])])]", "2019"),
    ("year = 2019, journal = {Estuarine Science}", "[title:([journal:([YEAR])])]",
     "EstuarineScience"),
    ("eprint = {2101.00001}, archiveprefix = {arXiv}", "[EPRINT]", "2101.00001"),
    (f"{FULL1}, year = 2019", "[auth]-[year]", "Okafor2019"),
    (f"{FULL1}, year = 2019", "[auth4:lower]:[year]", "okaf2019"),
    ("title = {Tides of: Europe}", "[title]", "TidesOfEurope"),
]


@pytest.mark.parametrize(("fields", "pattern", "key"), MODIFIER_CASES,
                         ids=[p for _, p, _ in MODIFIER_CASES])
def test_jabref_regex_fallback_and_unwanted_characters(fields: str, pattern: str,
                                                        key: str) -> None:
    assert compile_pattern("jabref:" + pattern)(entry(fields)) == key


def test_refbridge_patterns_take_the_regex_and_fallback_modifiers_and_keep_dashes() -> None:
    record = entry(f"{FULL1}, year = 2019")
    assert compile_pattern('[auth:regex("or$","")]-[title:(notitle)]-[year]')(record) == \
        "Okaf-notitle-2019"


@pytest.mark.parametrize(("pattern", "problem"), [
    ('[title:regex("[a-z","")]', "regular expression .* cannot be read"),
    ("[title:regex(x)]", r'write regex\("pattern", "replacement"\)'),
    ("[title", "has a \\[ that is not closed"),
    ("[VOLUMES]", r"unknown field \[VOLUMES\]"),
])
def test_a_jabref_pattern_that_cannot_be_read_is_an_error(pattern: str, problem: str) -> None:
    with pytest.raises(PatternError, match=problem):
        compile_pattern("jabref:" + pattern)


BBT_DEFAULT = "auth.lower + shorttitle(3,3) + year"
#: (entry fields, Better BibTeX's key under its default formula): how Better BibTeX reads a
#: title's words (a hyphenated word is one, a word of one letter or sign is skipped, the signs
#: at a word's ends are no part of it), keeps a name's dash, and spells German by the record's
#: language.
BBT_RULES: list[tuple[str, str]] = [
    (("author = {Okafor, Marta}, title = {Wave-Driven Transport: Off-Shore Sand Bars}, "
     "year = 2018"), "okaforWaveDrivenTransportOffShore2018"),
    ("author = {Okafor, Marta}, title = {{\\S} 12 Vitamin D in Coastal Fish}, year = 2018",
     "okafor12VitaminCoastal2018"),
    ("author = {Okafor, Marta}, title = {<Coastal> Dunes .:. a Field Guide}, year = 2018",
     "okaforCoastalDunesField2018"),
    ("author = {Neuser-Lindqvist, Tomas}, title = {Salt Marsh Survey}, year = 2018",
     "neuser-lindqvistSaltMarshSurvey2018"),
    (("author = {Kr{\\\"u}ger, Jan}, title = {{\\\"U}ber Sicherungs{\\\"u}bereignung}, "
     "year = 2019, language = {de-AT}"), "kruegerUeberSicherungsuebereignung2019"),
    (("author = {Kr{\\\"u}ger, Jan}, title = {{\\\"U}ber Sicherungs{\\\"u}bereignung}, "
     "year = 2019, language = {en}"), "krugerUberSicherungsubereignung2019"),
]


@pytest.mark.parametrize(("fields", "key"), BBT_RULES, ids=[k for _, k in BBT_RULES])
def test_better_bibtex_words_names_and_german(fields: str, key: str) -> None:
    assert compile_pattern(BBT_DEFAULT)(entry(fields)) == key


@pytest.mark.parametrize(("formula", "key"), [
    ("auth.lower + shorttitle + year", "okafortidalflatseurope2018"),
    ("auth.lower + shorttitle(3,1) + year", "okaforTidalflatseurope2018"),
    ("auth.lower + veryshorttitle + year", "okafortidal2018"),
    ('auth(n=0,m=1,creator="*",initials=false).fold.lower + shorttitle(3,3) + year',
     "okaforTidalFlatsEurope2018"),
    ("bbt:[auth:lower][shorttitle3_3][year]", "okaforTidalFlatsEurope2018"),
])
def test_better_bibtex_formulas_as_it_saves_and_spells_them(formula: str, key: str) -> None:
    record = entry("author = {Okafor, Marta}, title = {tidal flats of europe}, year = 2018")
    assert compile_pattern(formula)(record) == key


def test_a_better_bibtex_argument_refbridge_does_not_know_is_an_error() -> None:
    with pytest.raises(PatternError, match=r"cannot read 'auth\(n=2\).lower' of the key formula"):
        compile_pattern("auth(n=2).lower + year")


def test_jabref_keyword_pattern_reads_the_keywords_a_crossref_child_inherits() -> None:
    text = ("@inproceedings{child, title = {Tidal Flats}, crossref = {proc}}\n"
            "@proceedings{proc, title = {Coastal Days}, keywords = {estuaries, salt marsh}}\n")
    child = next(read_stream(io.StringIO(text), text, "k.bib", Diagnostics()))
    assert compile_pattern("jabref:[keyword2]")(child) == "saltmarsh"


@pytest.mark.parametrize(("issued", "year"), [
    (Date.of(2005, 7, 28), "2005"),
    (Date.of(4), "04"),
    (Date(literal="20"), "20xx"),
    (Date(literal="03/04"), "04"),
    (Date(literal="Issue Date"), "IssueDate"),
])
def test_better_bibtex_year_reads_a_date_as_its_date_parser_does(issued: Date,
                                                                  year: str) -> None:
    record = Record(id="r", type="patent", fields={"title": "Heat Exchanger"},
                    names={"author": (Name(family="Laufenberg", given="Xaver"),)},
                    dates={"issued": issued})
    assert compile_pattern("auth.lower + year")(record) == "laufenberg" + year
