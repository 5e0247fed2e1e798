"""Zotero's item types, fields and creator types mapped to CSL, as data.

Generated from Zotero's schema (version 41) by ``refbridge.formats.zotero.tables_build``; do not edit by
hand. ``FIELDS[zotero_type][csl_variable]`` is the Zotero field that holds the variable in that
item type, ``BASE_FIELDS[zotero_field]`` its base field, ``CREATORS[zotero_type][csl_role]`` the
creator type that holds the role; ``OTHER_FIELDS`` and ``OTHER_CREATORS`` list, per item type,
the fields and creator types that hold no CSL variable or role. Tables only: this module must
never hold logic.
"""

from __future__ import annotations

SCHEMA_VERSION: int = 41

ZOTERO_TYPE_OF_CSL: dict[str, str] = {
    "article": "preprint",
    "article-journal": "journalArticle",
    "article-magazine": "magazineArticle",
    "article-newspaper": "newspaperArticle",
    "bill": "bill",
    "book": "book",
    "broadcast": "podcast",
    "chapter": "bookSection",
    "dataset": "dataset",
    "document": "document",
    "entry-dictionary": "dictionaryEntry",
    "entry-encyclopedia": "encyclopediaArticle",
    "graphic": "artwork",
    "hearing": "hearing",
    "interview": "interview",
    "legal_case": "case",
    "legislation": "statute",
    "manuscript": "manuscript",
    "map": "map",
    "motion_picture": "film",
    "paper-conference": "conferencePaper",
    "patent": "patent",
    "personal_communication": "letter",
    "post": "forumPost",
    "post-weblog": "blogPost",
    "report": "report",
    "software": "computerProgram",
    "song": "audioRecording",
    "speech": "presentation",
    "standard": "standard",
    "thesis": "thesis",
    "webpage": "webpage"
}

CSL_TYPE_OF_ZOTERO: dict[str, str] = {
    "artwork": "graphic",
    "audioRecording": "song",
    "bill": "bill",
    "blogPost": "post-weblog",
    "book": "book",
    "bookSection": "chapter",
    "case": "legal_case",
    "computerProgram": "software",
    "conferencePaper": "paper-conference",
    "dataset": "dataset",
    "dictionaryEntry": "entry-dictionary",
    "document": "document",
    "email": "personal_communication",
    "encyclopediaArticle": "entry-encyclopedia",
    "film": "motion_picture",
    "forumPost": "post",
    "hearing": "hearing",
    "instantMessage": "personal_communication",
    "interview": "interview",
    "journalArticle": "article-journal",
    "letter": "personal_communication",
    "magazineArticle": "article-magazine",
    "manuscript": "manuscript",
    "map": "map",
    "newspaperArticle": "article-newspaper",
    "patent": "patent",
    "podcast": "broadcast",
    "preprint": "article",
    "presentation": "speech",
    "radioBroadcast": "broadcast",
    "report": "report",
    "standard": "standard",
    "statute": "legislation",
    "thesis": "thesis",
    "tvBroadcast": "broadcast",
    "videoRecording": "motion_picture",
    "webpage": "webpage"
}

FIELDS: dict[str, dict[str, str]] = {
    "artwork": {
        "title": "title",
        "abstract": "abstractNote",
        "medium": "artworkMedium",
        "dimensions": "artworkSize",
        "event-place": "eventPlace",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "audioRecording": {
        "title": "title",
        "abstract": "abstractNote",
        "medium": "audioRecordingFormat",
        "collection-title": "seriesTitle",
        "volume": "volume",
        "number-of-volumes": "numberOfVolumes",
        "publisher": "label",
        "publisher-place": "place",
        "dimensions": "runningTime",
        "ISBN": "ISBN",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "bill": {
        "title": "title",
        "abstract": "abstractNote",
        "number": "billNumber",
        "container-title": "code",
        "volume": "codeVolume",
        "section": "section",
        "page": "codePages",
        "authority": "legislativeBody",
        "chapter-number": "session",
        "references": "history",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "blogPost": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "blogTitle",
        "genre": "websiteType",
        "DOI": "DOI",
        "URL": "url",
        "ISSN": "ISSN",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "book": {
        "title": "title",
        "abstract": "abstractNote",
        "collection-title": "series",
        "collection-number": "seriesNumber",
        "volume": "volume",
        "number-of-volumes": "numberOfVolumes",
        "edition": "edition",
        "publisher": "publisher",
        "publisher-place": "place",
        "original-publisher": "originalPublisher",
        "original-publisher-place": "originalPlace",
        "medium": "format",
        "number-of-pages": "numPages",
        "ISBN": "ISBN",
        "DOI": "DOI",
        "URL": "url",
        "ISSN": "ISSN",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "bookSection": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "bookTitle",
        "collection-title": "series",
        "collection-number": "seriesNumber",
        "volume": "volume",
        "number-of-volumes": "numberOfVolumes",
        "edition": "edition",
        "publisher": "publisher",
        "publisher-place": "place",
        "original-publisher": "originalPublisher",
        "original-publisher-place": "originalPlace",
        "medium": "format",
        "page": "pages",
        "ISBN": "ISBN",
        "DOI": "DOI",
        "URL": "url",
        "ISSN": "ISSN",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "case": {
        "title": "caseName",
        "abstract": "abstractNote",
        "authority": "court",
        "number": "docketNumber",
        "container-title": "reporter",
        "volume": "reporterVolume",
        "page": "firstPage",
        "references": "history",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "computerProgram": {
        "title": "title",
        "abstract": "abstractNote",
        "collection-title": "seriesTitle",
        "version": "versionNumber",
        "medium": "system",
        "publisher": "company",
        "publisher-place": "place",
        "genre": "programmingLanguage",
        "URL": "url",
        "DOI": "DOI",
        "ISBN": "ISBN",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "title-short": "shortTitle",
        "note": "extra"
    },
    "conferencePaper": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "proceedingsTitle",
        "event-title": "conferenceName",
        "publisher": "publisher",
        "publisher-place": "place",
        "event-place": "eventPlace",
        "volume": "volume",
        "issue": "issue",
        "number-of-volumes": "numberOfVolumes",
        "page": "pages",
        "collection-title": "series",
        "collection-number": "seriesNumber",
        "DOI": "DOI",
        "ISBN": "ISBN",
        "URL": "url",
        "ISSN": "ISSN",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "dataset": {
        "title": "title",
        "abstract": "abstractNote",
        "number": "identifier",
        "genre": "type",
        "version": "versionNumber",
        "publisher": "repository",
        "publisher-place": "repositoryLocation",
        "medium": "format",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "dictionaryEntry": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "dictionaryTitle",
        "collection-title": "series",
        "collection-number": "seriesNumber",
        "volume": "volume",
        "number-of-volumes": "numberOfVolumes",
        "edition": "edition",
        "publisher": "publisher",
        "publisher-place": "place",
        "page": "pages",
        "ISBN": "ISBN",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "document": {
        "title": "title",
        "abstract": "abstractNote",
        "genre": "type",
        "publisher": "publisher",
        "publisher-place": "place",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "email": {
        "title": "subject",
        "abstract": "abstractNote",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "encyclopediaArticle": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "encyclopediaTitle",
        "collection-title": "series",
        "collection-number": "seriesNumber",
        "volume": "volume",
        "number-of-volumes": "numberOfVolumes",
        "edition": "edition",
        "publisher": "publisher",
        "publisher-place": "place",
        "page": "pages",
        "ISBN": "ISBN",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "film": {
        "title": "title",
        "abstract": "abstractNote",
        "publisher": "distributor",
        "publisher-place": "place",
        "genre": "genre",
        "medium": "videoRecordingFormat",
        "dimensions": "runningTime",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "forumPost": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "forumTitle",
        "genre": "postType",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "hearing": {
        "title": "title",
        "abstract": "abstractNote",
        "section": "committee",
        "publisher": "publisher",
        "number-of-volumes": "numberOfVolumes",
        "number": "documentNumber",
        "page": "pages",
        "authority": "legislativeBody",
        "chapter-number": "session",
        "references": "history",
        "publisher-place": "place",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "instantMessage": {
        "title": "title",
        "abstract": "abstractNote",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "interview": {
        "title": "title",
        "abstract": "abstractNote",
        "medium": "interviewMedium",
        "publisher": "publisher",
        "publisher-place": "place",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "journalArticle": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "publicationTitle",
        "publisher": "publisher",
        "publisher-place": "place",
        "volume": "volume",
        "issue": "issue",
        "section": "section",
        "part-title": "partTitle",
        "page": "pages",
        "collection-title": "series",
        "container-title-short": "journalAbbreviation",
        "DOI": "DOI",
        "URL": "url",
        "PMID": "PMID",
        "PMCID": "PMCID",
        "ISSN": "ISSN",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "letter": {
        "title": "title",
        "abstract": "abstractNote",
        "genre": "letterType",
        "event-place": "eventPlace",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "magazineArticle": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "publicationTitle",
        "publisher": "publisher",
        "publisher-place": "place",
        "volume": "volume",
        "issue": "issue",
        "page": "pages",
        "ISSN": "ISSN",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "manuscript": {
        "title": "title",
        "abstract": "abstractNote",
        "genre": "manuscriptType",
        "publisher": "institution",
        "publisher-place": "place",
        "number-of-pages": "numPages",
        "number": "number",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "map": {
        "title": "title",
        "abstract": "abstractNote",
        "genre": "mapType",
        "scale": "scale",
        "collection-title": "seriesTitle",
        "edition": "edition",
        "publisher": "publisher",
        "publisher-place": "place",
        "DOI": "DOI",
        "ISBN": "ISBN",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "newspaperArticle": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "publicationTitle",
        "publisher": "publisher",
        "publisher-place": "place",
        "volume": "volume",
        "issue": "issue",
        "edition": "edition",
        "section": "section",
        "page": "pages",
        "ISSN": "ISSN",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "patent": {
        "title": "title",
        "abstract": "abstractNote",
        "publisher-place": "place",
        "authority": "issuingAuthority",
        "number": "patentNumber",
        "page": "pages",
        "call-number": "applicationNumber",
        "issue": "priorityNumbers",
        "references": "references",
        "status": "legalStatus",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "podcast": {
        "title": "title",
        "abstract": "abstractNote",
        "collection-title": "seriesTitle",
        "number": "episodeNumber",
        "medium": "audioFileType",
        "publisher": "publisher",
        "publisher-place": "place",
        "dimensions": "runningTime",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "preprint": {
        "title": "title",
        "abstract": "abstractNote",
        "genre": "genre",
        "publisher": "repository",
        "number": "archiveID",
        "publisher-place": "place",
        "collection-title": "series",
        "collection-number": "seriesNumber",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "presentation": {
        "title": "title",
        "abstract": "abstractNote",
        "genre": "presentationType",
        "event-title": "meetingName",
        "publisher-place": "place",
        "collection-title": "series",
        "container-title": "sessionTitle",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "radioBroadcast": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "programTitle",
        "number": "episodeNumber",
        "medium": "audioRecordingFormat",
        "publisher": "network",
        "publisher-place": "place",
        "dimensions": "runningTime",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "report": {
        "title": "title",
        "abstract": "abstractNote",
        "number": "reportNumber",
        "genre": "reportType",
        "publisher": "institution",
        "publisher-place": "place",
        "collection-title": "seriesTitle",
        "collection-number": "seriesNumber",
        "page": "pages",
        "DOI": "DOI",
        "ISBN": "ISBN",
        "URL": "url",
        "ISSN": "ISSN",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "standard": {
        "title": "title",
        "abstract": "abstractNote",
        "authority": "organization",
        "section": "committee",
        "genre": "type",
        "number": "number",
        "version": "versionNumber",
        "edition": "edition",
        "status": "status",
        "publisher": "publisher",
        "publisher-place": "place",
        "part-title": "partTitle",
        "ISBN": "ISBN",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "number-of-pages": "numPages",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "statute": {
        "title": "nameOfAct",
        "abstract": "abstractNote",
        "container-title": "code",
        "volume": "codeNumber",
        "number": "publicLawNumber",
        "page": "pages",
        "section": "section",
        "chapter-number": "session",
        "references": "history",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    },
    "thesis": {
        "title": "title",
        "abstract": "abstractNote",
        "genre": "thesisType",
        "publisher": "university",
        "publisher-place": "place",
        "collection-title": "series",
        "collection-number": "seriesNumber",
        "number-of-pages": "numPages",
        "DOI": "DOI",
        "ISBN": "ISBN",
        "URL": "url",
        "ISSN": "ISSN",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "tvBroadcast": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "programTitle",
        "number": "episodeNumber",
        "medium": "videoRecordingFormat",
        "publisher": "network",
        "publisher-place": "place",
        "dimensions": "runningTime",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "videoRecording": {
        "title": "title",
        "abstract": "abstractNote",
        "medium": "videoRecordingFormat",
        "collection-title": "seriesTitle",
        "volume": "volume",
        "number-of-volumes": "numberOfVolumes",
        "publisher": "studio",
        "publisher-place": "place",
        "dimensions": "runningTime",
        "ISBN": "ISBN",
        "DOI": "DOI",
        "URL": "url",
        "archive": "archive",
        "archive_location": "archiveLocation",
        "title-short": "shortTitle",
        "language": "language",
        "source": "libraryCatalog",
        "call-number": "callNumber",
        "note": "extra"
    },
    "webpage": {
        "title": "title",
        "abstract": "abstractNote",
        "container-title": "websiteTitle",
        "genre": "websiteType",
        "publisher": "publisher",
        "publisher-place": "place",
        "DOI": "DOI",
        "URL": "url",
        "title-short": "shortTitle",
        "language": "language",
        "note": "extra"
    }
}

DATE_FIELDS: dict[str, dict[str, str]] = {
    "artwork": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "audioRecording": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "bill": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "blogPost": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "book": {
        "issued": "date",
        "original-date": "originalDate",
        "accessed": "accessDate"
    },
    "bookSection": {
        "issued": "date",
        "original-date": "originalDate",
        "accessed": "accessDate"
    },
    "case": {
        "issued": "dateDecided",
        "accessed": "accessDate"
    },
    "computerProgram": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "conferencePaper": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "dataset": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "dictionaryEntry": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "document": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "email": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "encyclopediaArticle": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "film": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "forumPost": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "hearing": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "instantMessage": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "interview": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "journalArticle": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "letter": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "magazineArticle": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "manuscript": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "map": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "newspaperArticle": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "patent": {
        "submitted": "filingDate",
        "issued": "issueDate",
        "original-date": "priorityDate",
        "accessed": "accessDate"
    },
    "podcast": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "preprint": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "presentation": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "radioBroadcast": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "report": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "standard": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "statute": {
        "issued": "dateEnacted",
        "accessed": "accessDate"
    },
    "thesis": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "tvBroadcast": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "videoRecording": {
        "issued": "date",
        "accessed": "accessDate"
    },
    "webpage": {
        "issued": "date",
        "accessed": "accessDate"
    }
}

CREATORS: dict[str, dict[str, str]] = {
    "artwork": {
        "author": "artist",
        "contributor": "contributor"
    },
    "audioRecording": {
        "author": "performer",
        "original-author": "originalCreator",
        "composer": "composer",
        "translator": "translator",
        "contributor": "contributor"
    },
    "bill": {
        "author": "sponsor",
        "contributor": "contributor"
    },
    "blogPost": {
        "author": "author",
        "translator": "translator",
        "contributor": "contributor"
    },
    "book": {
        "author": "author",
        "contributor": "contributor",
        "editor": "editor",
        "translator": "translator",
        "collection-editor": "seriesEditor"
    },
    "bookSection": {
        "author": "author",
        "contributor": "contributor",
        "editor": "editor",
        "container-author": "bookAuthor",
        "translator": "translator",
        "collection-editor": "seriesEditor"
    },
    "case": {
        "author": "author",
        "contributor": "contributor"
    },
    "computerProgram": {
        "author": "programmer",
        "contributor": "contributor"
    },
    "conferencePaper": {
        "author": "author",
        "contributor": "contributor",
        "editor": "editor",
        "translator": "translator",
        "collection-editor": "seriesEditor"
    },
    "dataset": {
        "author": "author",
        "contributor": "contributor"
    },
    "dictionaryEntry": {
        "author": "author",
        "contributor": "contributor",
        "editor": "editor",
        "translator": "translator",
        "collection-editor": "seriesEditor"
    },
    "document": {
        "author": "author",
        "contributor": "contributor",
        "editor": "editor",
        "translator": "translator",
        "reviewed-author": "reviewedAuthor"
    },
    "email": {
        "author": "author",
        "translator": "translator",
        "contributor": "contributor",
        "recipient": "recipient"
    },
    "encyclopediaArticle": {
        "author": "author",
        "contributor": "contributor",
        "editor": "editor",
        "translator": "translator",
        "collection-editor": "seriesEditor"
    },
    "film": {
        "author": "director",
        "producer": "producer",
        "script-writer": "scriptwriter",
        "performer": "castMember",
        "host": "host",
        "guest": "guest",
        "narrator": "narrator",
        "translator": "translator",
        "contributor": "contributor"
    },
    "forumPost": {
        "author": "author",
        "contributor": "contributor"
    },
    "hearing": {
        "author": "contributor"
    },
    "instantMessage": {
        "author": "author",
        "contributor": "contributor",
        "recipient": "recipient"
    },
    "interview": {
        "author": "interviewee",
        "contributor": "contributor",
        "interviewer": "interviewer",
        "translator": "translator"
    },
    "journalArticle": {
        "author": "author",
        "contributor": "contributor",
        "editor": "editor",
        "translator": "translator",
        "reviewed-author": "reviewedAuthor"
    },
    "letter": {
        "author": "author",
        "recipient": "recipient",
        "contributor": "contributor",
        "translator": "translator"
    },
    "magazineArticle": {
        "author": "author",
        "contributor": "contributor",
        "translator": "translator",
        "reviewed-author": "reviewedAuthor"
    },
    "manuscript": {
        "author": "author",
        "contributor": "contributor",
        "translator": "translator"
    },
    "map": {
        "author": "cartographer",
        "contributor": "contributor",
        "collection-editor": "seriesEditor"
    },
    "newspaperArticle": {
        "author": "author",
        "contributor": "contributor",
        "translator": "translator",
        "reviewed-author": "reviewedAuthor"
    },
    "patent": {
        "author": "inventor",
        "contributor": "contributor"
    },
    "podcast": {
        "author": "podcaster",
        "guest": "guest",
        "producer": "producer",
        "executive-producer": "executiveProducer",
        "series-creator": "seriesCreator",
        "director": "director",
        "script-writer": "scriptwriter",
        "performer": "castMember",
        "translator": "translator",
        "contributor": "contributor"
    },
    "preprint": {
        "author": "author",
        "contributor": "contributor",
        "editor": "editor",
        "translator": "translator",
        "reviewed-author": "reviewedAuthor"
    },
    "presentation": {
        "author": "presenter",
        "chair": "chair",
        "organizer": "organizer",
        "contributor": "contributor",
        "translator": "translator"
    },
    "radioBroadcast": {
        "author": "creator",
        "host": "host",
        "guest": "guest",
        "producer": "producer",
        "executive-producer": "executiveProducer",
        "series-creator": "seriesCreator",
        "director": "director",
        "script-writer": "scriptwriter",
        "performer": "castMember",
        "translator": "translator",
        "contributor": "contributor"
    },
    "report": {
        "author": "author",
        "editor": "editor",
        "contributor": "contributor",
        "translator": "translator",
        "collection-editor": "seriesEditor"
    },
    "standard": {
        "author": "author",
        "editor": "editor",
        "contributor": "contributor"
    },
    "statute": {
        "author": "author",
        "contributor": "contributor"
    },
    "thesis": {
        "author": "author",
        "contributor": "contributor"
    },
    "tvBroadcast": {
        "author": "director",
        "producer": "producer",
        "executive-producer": "executiveProducer",
        "series-creator": "seriesCreator",
        "script-writer": "scriptwriter",
        "performer": "castMember",
        "host": "host",
        "guest": "guest",
        "narrator": "narrator",
        "translator": "translator",
        "contributor": "contributor"
    },
    "videoRecording": {
        "author": "creator",
        "director": "director",
        "producer": "producer",
        "script-writer": "scriptwriter",
        "executive-producer": "executiveProducer",
        "performer": "castMember",
        "host": "host",
        "guest": "guest",
        "narrator": "narrator",
        "translator": "translator",
        "contributor": "contributor"
    },
    "webpage": {
        "author": "author",
        "contributor": "contributor",
        "translator": "translator"
    }
}

BASE_FIELDS: dict[str, str] = {
    "archiveID": "number",
    "artworkMedium": "medium",
    "audioFileType": "medium",
    "audioRecordingFormat": "medium",
    "billNumber": "number",
    "blogTitle": "publicationTitle",
    "bookTitle": "publicationTitle",
    "caseName": "title",
    "codePages": "pages",
    "codeVolume": "volume",
    "company": "publisher",
    "court": "authority",
    "dateDecided": "date",
    "dateEnacted": "date",
    "dictionaryTitle": "publicationTitle",
    "distributor": "publisher",
    "docketNumber": "number",
    "documentNumber": "number",
    "encyclopediaTitle": "publicationTitle",
    "episodeNumber": "number",
    "firstPage": "pages",
    "format": "medium",
    "forumTitle": "publicationTitle",
    "genre": "type",
    "identifier": "number",
    "institution": "publisher",
    "interviewMedium": "medium",
    "issueDate": "date",
    "issuingAuthority": "authority",
    "label": "publisher",
    "legalStatus": "status",
    "legislativeBody": "authority",
    "letterType": "type",
    "manuscriptType": "type",
    "mapType": "type",
    "nameOfAct": "title",
    "network": "publisher",
    "organization": "authority",
    "patentNumber": "number",
    "postType": "type",
    "presentationType": "type",
    "priorityDate": "originalDate",
    "proceedingsTitle": "publicationTitle",
    "programTitle": "publicationTitle",
    "publicLawNumber": "number",
    "reportNumber": "number",
    "reportType": "type",
    "reporterVolume": "volume",
    "repository": "publisher",
    "repositoryLocation": "place",
    "sessionTitle": "publicationTitle",
    "studio": "publisher",
    "subject": "title",
    "thesisType": "type",
    "university": "publisher",
    "videoRecordingFormat": "medium",
    "websiteTitle": "publicationTitle",
    "websiteType": "type"
}

OTHER_FIELDS: dict[str, list[str]] = {
    "artwork": [
        "citationKey",
        "rights"
    ],
    "audioRecording": [
        "citationKey",
        "rights"
    ],
    "bill": [
        "citationKey",
        "rights"
    ],
    "blogPost": [
        "citationKey",
        "rights"
    ],
    "book": [
        "citationKey",
        "rights"
    ],
    "bookSection": [
        "citationKey",
        "rights"
    ],
    "case": [
        "citationKey",
        "rights"
    ],
    "computerProgram": [
        "rights",
        "citationKey"
    ],
    "conferencePaper": [
        "citationKey",
        "rights"
    ],
    "dataset": [
        "citationKey",
        "rights"
    ],
    "dictionaryEntry": [
        "citationKey",
        "rights"
    ],
    "document": [
        "citationKey",
        "rights"
    ],
    "email": [
        "citationKey",
        "rights"
    ],
    "encyclopediaArticle": [
        "citationKey",
        "rights"
    ],
    "film": [
        "citationKey",
        "rights"
    ],
    "forumPost": [
        "citationKey",
        "rights"
    ],
    "hearing": [
        "citationKey",
        "rights"
    ],
    "instantMessage": [
        "citationKey",
        "rights"
    ],
    "interview": [
        "citationKey",
        "rights"
    ],
    "journalArticle": [
        "partNumber",
        "seriesTitle",
        "seriesText",
        "citationKey",
        "rights"
    ],
    "letter": [
        "citationKey",
        "rights"
    ],
    "magazineArticle": [
        "citationKey",
        "rights"
    ],
    "manuscript": [
        "citationKey",
        "rights"
    ],
    "map": [
        "citationKey",
        "rights"
    ],
    "newspaperArticle": [
        "citationKey",
        "rights"
    ],
    "patent": [
        "country",
        "assignee",
        "citationKey",
        "rights"
    ],
    "podcast": [
        "citationKey",
        "rights"
    ],
    "preprint": [
        "citationKey",
        "rights"
    ],
    "presentation": [
        "citationKey",
        "rights"
    ],
    "radioBroadcast": [
        "citationKey",
        "rights"
    ],
    "report": [
        "citationKey",
        "rights"
    ],
    "standard": [
        "partNumber",
        "citationKey",
        "rights"
    ],
    "statute": [
        "citationKey",
        "rights"
    ],
    "thesis": [
        "citationKey",
        "rights"
    ],
    "tvBroadcast": [
        "citationKey",
        "rights"
    ],
    "videoRecording": [
        "citationKey",
        "rights"
    ],
    "webpage": [
        "citationKey",
        "rights"
    ]
}

OTHER_CREATORS: dict[str, list[str]] = {
    "artwork": [],
    "audioRecording": [
        "wordsBy"
    ],
    "bill": [
        "cosponsor"
    ],
    "blogPost": [
        "commenter"
    ],
    "book": [],
    "bookSection": [],
    "case": [
        "counsel"
    ],
    "computerProgram": [],
    "conferencePaper": [],
    "dataset": [],
    "dictionaryEntry": [],
    "document": [],
    "email": [],
    "encyclopediaArticle": [],
    "film": [],
    "forumPost": [],
    "hearing": [],
    "instantMessage": [],
    "interview": [],
    "journalArticle": [],
    "letter": [],
    "magazineArticle": [],
    "manuscript": [],
    "map": [],
    "newspaperArticle": [],
    "patent": [
        "attorneyAgent"
    ],
    "podcast": [],
    "preprint": [],
    "presentation": [],
    "radioBroadcast": [],
    "report": [],
    "standard": [],
    "statute": [],
    "thesis": [],
    "tvBroadcast": [],
    "videoRecording": [],
    "webpage": []
}
