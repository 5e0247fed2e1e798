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
    "language": "LCID",
}
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
