"""Word's bibliography vocabulary (``Sources.xml``, the ``b:`` namespace of Office Open XML's
bibliography schema) as data: source types, the element holding each CSL variable, and the
contributor roles. The container title has a different element in each source type
(``JournalName``, ``PeriodicalTitle``, ``BookTitle``, ``ConferenceName``,
``InternetSiteTitle``). Tables only: this module must never hold logic.
"""

from __future__ import annotations

from refbridge.formats.catalogue import WORD_NAMESPACE

NAMESPACE = WORD_NAMESPACE

#: CSL type -> Word source type (others: ``Misc``).
SOURCE_TYPES: dict[str, str] = {
    "article-journal": "JournalArticle",
    "article-magazine": "ArticleInAPeriodical",
    "book": "Book",
    "chapter": "BookSection",
    "paper-conference": "ConferenceProceedings",
    "report": "Report",
    "song": "SoundRecording",
    "performance": "Performance",
    "graphic": "Art",
    "webpage": "DocumentFromInternetSite",
    "motion_picture": "Film",
    "interview": "Interview",
    "patent": "Patent",
    "software": "ElectronicSource",
    "legal_case": "Case",
    "document": "Misc",
}
FALLBACK_SOURCE_TYPE = "Misc"
#: Source types other programs write, read as these CSL types.
SOURCE_TYPE_ALIASES: dict[str, str] = {
    "Proceedings": "paper-conference",
    "InternetSite": "webpage",
    "Thesis": "thesis",
}

#: Source type -> the element of its container title.
CONTAINER_ELEMENTS: dict[str, str] = {
    "JournalArticle": "JournalName",
    "ArticleInAPeriodical": "PeriodicalTitle",
    "BookSection": "BookTitle",
    "ConferenceProceedings": "ConferenceName",
    "DocumentFromInternetSite": "InternetSiteTitle",
    "Film": "ProductionCompany",
    "Case": "Reporter",
    "SoundRecording": "AlbumTitle",
}
#: Container elements read in any source type.
CONTAINER_ALIASES: tuple[str, ...] = (
    "JournalName", "PeriodicalTitle", "BookTitle", "ConferenceName", "InternetSiteTitle",
    "AlbumTitle")

#: CSL variable -> element (one value each).
FIELDS: dict[str, str] = {
    "title": "Title",
    "title-short": "ShortTitle",
    "publisher": "Publisher",
    "publisher-place": "City",
    "volume": "Volume",
    "issue": "Issue",
    "page": "Pages",
    "edition": "Edition",
    "number-of-volumes": "NumberVolumes",
    "DOI": "DOI",
    "URL": "URL",
    "genre": "ThesisType",
    "medium": "Medium",
    "version": "Version",
    "number": "StandardNumber",
    "chapter-number": "ChapterNumber",
    "authority": "Court",
    "division": "Department",
}
#: Elements JabRef's MS Office export adds for BibTeX fields (lower-case names) -> CSL
#: variables; ``BIBTEX_KeyWords`` holds the keywords, separated by ``;``.
JABREF_FIELDS: dict[str, str] = {"bibtex_abstract": "abstract",
                                 "bibtex_series": "collection-title"}
JABREF_KEYWORDS = "bibtex_keywords"
#: The element of the language: a Windows locale id.
LANGUAGE = "LCID"
#: Windows locale ids -> the languages (BCP 47) they are; the writer writes the first id of a
#: language. Another id (``0``: none) is kept as the ``word.LCID`` extra.
LOCALES: dict[str, str] = {
    "1033": "en-US", "2057": "en-GB", "3081": "en-AU", "4105": "en-CA", "1031": "de-DE",
    "3079": "de-AT", "2055": "de-CH", "1036": "fr-FR", "3084": "fr-CA", "1034": "es-ES",
    "3082": "es-ES", "2058": "es-MX", "1040": "it-IT", "1043": "nl-NL", "1046": "pt-BR",
    "2070": "pt-PT", "1049": "ru-RU", "1041": "ja-JP", "2052": "zh-CN", "1028": "zh-TW",
    "1042": "ko-KR", "1053": "sv-SE", "1030": "da-DK", "1044": "nb-NO", "1035": "fi-FI",
    "1045": "pl-PL", "1029": "cs-CZ", "1038": "hu-HU", "1055": "tr-TR", "1032": "el-GR",
    "1037": "he-IL", "1025": "ar-SA", "1048": "ro-RO", "1050": "hr-HR", "1051": "sk-SK",
    "1060": "sl-SI", "1058": "uk-UA", "1026": "bg-BG", "1061": "et-EE", "1062": "lv-LV",
    "1063": "lt-LT", "1081": "hi-IN", "1054": "th-TH", "1066": "vi-VN", "1057": "id-ID",
    "1086": "ms-MY", "1065": "fa-IR", "1027": "ca-ES", "1069": "eu-ES", "1110": "gl-ES",
    "1039": "is-IS",
}
#: ``StandardNumber`` as JabRef writes it: ``:ISSN:0937-6429`` (several: ``:ISBN:… :ISSN:…``);
#: kinds -> CSL variables (another kind is kept as ``word.StandardNumber_<KIND>``).
STANDARD_NUMBER_KINDS: dict[str, str] = {"ISBN": "ISBN", "ISSN": "ISSN", "DOI": "DOI"}
#: Elements of the place, joined by ", " into the publisher's place.
PLACE_ELEMENTS: tuple[str, ...] = ("City", "StateProvince", "CountryRegion")
#: Elements other programs write for the same variables (read only; lower-case names).
FIELD_ALIASES: dict[str, str] = {"institution": "publisher", "patentnumber": "number",
                                 "casenumber": "number"}
#: CSL role -> the contributor element (under ``b:Author``).
ROLES: dict[str, str] = {
    "author": "Author",
    "editor": "Editor",
    "translator": "Translator",
    "compiler": "Compiler",
    "composer": "Composer",
    "director": "Director",
    "interviewer": "Interviewer",
    "performer": "Performer",
    "producer": "ProducerName",
    "script-writer": "Writer",
    "illustrator": "Artist",
    "container-author": "BookAuthor",
}
ROLE_ALIASES: dict[str, str] = {"inventor": "author", "interviewee": "author",
                                "conductor": "performer", "counsel": "author"}

TAG = "Tag"  #: the citation key
SOURCE_TYPE = "SourceType"
NOTE = "Comments"
DATE_ELEMENTS: dict[str, tuple[str, str, str]] = {
    "issued": ("Year", "Month", "Day"),
    "accessed": ("YearAccessed", "MonthAccessed", "DayAccessed"),
}
#: The order of a source's elements as Word writes them.
ORDER: tuple[str, ...] = (
    "Tag", "SourceType", "Guid", "Author", "Title", "ShortTitle", "JournalName",
    "PeriodicalTitle", "BookTitle", "ConferenceName", "InternetSiteTitle", "Year", "Month",
    "Day", "Pages", "Volume", "Issue", "Edition", "NumberVolumes", "ChapterNumber", "City",
    "Publisher", "ProductionCompany", "Reporter", "AlbumTitle", "Court", "Department",
    "ThesisType", "StandardNumber", "Medium", "Version", "YearAccessed", "MonthAccessed",
    "DayAccessed", "URL", "DOI", "LCID", "Comments",
)
#: Elements read into another form than their text (the type, dates, identifiers,
#: keywords): element -> how.
RECOMPOSED: dict[str, str] = {
    "SourceType": "the CSL type",
    **dict.fromkeys(("Year", "Month", "Day", "YearAccessed", "MonthAccessed", "DayAccessed"),
                    "a date"),
    "StandardNumber": "ISBN, ISSN or number (JabRef's :KIND: pairs split)",
    "BIBTEX_KeyWords": "the keywords, split at ;",
    "LCID": "the language",
}
