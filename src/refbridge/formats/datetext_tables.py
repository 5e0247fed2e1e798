"""The words dates are written with: month names, seasons, circa and era markers, weekdays and
the phrases that say a work has no date yet, in the languages reference managers meet
(English, German, French, Spanish, Italian, Portuguese, Dutch, the Scandinavian languages,
Polish, Czech, Russian). Data only: ``refbridge.formats.datetext`` reads dates with them.
Words are lower case and without accents; the reader folds what it reads the same way.
"""

from __future__ import annotations

#: Full month names (and the declined forms some languages write in dates), January first.
MONTH_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"),
    "de": ("januar", "februar", "marz", "april", "mai", "juni", "juli", "august",
           "september", "oktober", "november", "dezember"),
    "de-at": ("janner", "feber", "marz", "april", "mai", "juni", "juli", "august",
              "september", "oktober", "november", "dezember"),
    "fr": ("janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout",
           "septembre", "octobre", "novembre", "decembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"),
    "es-setiembre": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
                     "setiembre", "octubre", "noviembre", "diciembre"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
           "settembre", "ottobre", "novembre", "dicembre"),
    "pt": ("janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto",
           "setembro", "outubro", "novembro", "dezembro"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus",
           "september", "oktober", "november", "december"),
    "sv": ("januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti",
           "september", "oktober", "november", "december"),
    "da-nb": ("januar", "februar", "marts", "april", "maj", "juni", "juli", "august",
              "september", "oktober", "november", "desember"),
    "pl": ("styczen", "luty", "marzec", "kwiecien", "maj", "czerwiec", "lipiec", "sierpien",
           "wrzesien", "pazdziernik", "listopad", "grudzien"),
    "pl-genitive": ("stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca",
                    "sierpnia", "wrzesnia", "pazdziernika", "listopada", "grudnia"),
    "cs": ("leden", "unor", "brezen", "duben", "kveten", "cerven", "cervenec", "srpen",
           "zari", "rijen", "listopad", "prosinec"),
    "ru": ("январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август",
           "сентябрь", "октябрь", "ноябрь", "декабрь"),
    "ru-genitive": ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
                    "сентября", "октября", "ноября", "декабря"),
}

#: Abbreviations that are no prefix of a full name above.
MONTH_ABBREVIATIONS: dict[str, int] = {"sept": 9, "juil": 7, "mrt": 3, "dbre": 12}

#: Seasons as CSL numbers them: 1 spring, 2 summer, 3 autumn, 4 winter.
SEASON_WORDS: dict[str, int] = {
    "spring": 1, "summer": 2, "autumn": 3, "fall": 3, "winter": 4,
    "spr": 1, "sum": 2, "aut": 3, "fal": 3, "win": 4,  # Web of Science's PD abbreviations
    "fruhling": 1, "fruhjahr": 1, "sommer": 2, "herbst": 3,
    "printemps": 1, "ete": 2, "automne": 3, "hiver": 4,
    "primavera": 1, "verano": 2, "otono": 3, "invierno": 4,
    "estate": 2, "autunno": 3, "inverno": 4, "verao": 2, "outono": 3,
    "lente": 1, "voorjaar": 1, "zomer": 2, "herfst": 3, "najaar": 3,
}

#: Words that mark an approximate date.
CIRCA_WORDS: frozenset[str] = frozenset({"c", "ca", "circa", "approx", "about", "around", "um",
                                         "vers", "hacia"})

#: Era words (dots and spaces removed) and the sign they give the year.
ERA_WORDS: dict[str, int] = {"bc": -1, "bce": -1, "vchr": -1, "ad": 1, "ce": 1, "nchr": 1}

#: Words a date may carry that say nothing about it: weekdays and joining words
#: (``5 de mayo de 2019``, ``the 5th of May``).
IGNORED_WORDS: frozenset[str] = frozenset({
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
    "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag",
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
    "the", "of", "from", "de", "del", "den", "der", "le", "du", "im", "in", "vom"})

#: What is written where a work has no date (yet): kept as a literal date, as CSL keeps it.
NO_DATE_PHRASES: frozenset[str] = frozenset({
    "n.d.", "n. d.", "nd", "n.d", "no date", "undated", "s.d.", "s. d.", "s.d", "sans date",
    "o.j.", "o. j.", "ohne jahr", "s.f.", "sin fecha", "forthcoming", "in press",
    "im druck", "sous presse", "en prensa", "in preparation", "submitted", "accepted",
    "to appear", "unpublished", "online first", "early access"})

#: Time zones a date-time may end with (after a clock time, which is dropped with it).
TIME_ZONES: tuple[str, ...] = ("GMT", "UTC", "UT", "EST", "EDT", "CST", "CDT", "MST", "MDT",
                               "PST", "PDT", "CET", "CEST", "BST", "Z")
