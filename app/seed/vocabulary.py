"""The seed's words: titles, places, texts, costs and statuses, one text in every language
(en, de, sk, in the order of LANGUAGES), each written as a person of that language would."""

from dataclasses import dataclass
from typing import Any

# One text in every language, in the order of LANGUAGES (en, de, sk).
Text3 = tuple[str, str, str]

# An event's title is a phrase composed per language, never a word-for-word translation:
# English puts the three words side by side ("Midweek Science Night"); German makes the genre
# and the kind one compound noun and puts the occasion before it as an adjective that agrees
# with the noun's gender ("Großes Jazzkonzert") or after it as a phrase ("Wissenschaftsabend
# zur Wochenmitte"); Slovak makes occasion and genre adjectives agreeing with the noun
# ("Veľká filmová prehliadka") or puts the occasion after it ("Vedecký večer v strede týždňa").
# Genders, as the German and Slovak words' forms are listed: masculine, feminine, neuter.
Gender = int
M, F, N = 0, 1, 2
Forms = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Occasion:
    """When or for whom: an adjective by gender before the noun, or a phrase after it."""

    en: str
    de: Forms | str
    sk: Forms | str


@dataclass(frozen=True, slots=True)
class Genre:
    """What it is about: German's first part of a compound (`hyphen`: "Streetfood-Markt"
    rather than a closed compound), Slovak's adjective by gender."""

    en: str
    de: str
    sk: Forms
    hyphen: bool = False


@dataclass(frozen=True, slots=True)
class Kind:
    """What sort of event: the noun in every language, with its German and Slovak gender."""

    en: str
    de: str
    de_gender: Gender
    sk: str
    sk_gender: Gender
    hyphen: bool = False  # German joins an English loanword with a hyphen: "Jazz-Workshop"


EVENT_ADJECTIVES: tuple[Occasion, ...] = (
    Occasion("Summer", "im Sommer", ("letný", "letná", "letné")),
    Occasion("Winter", "im Winter", ("zimný", "zimná", "zimné")),
    Occasion("Spring", "im Frühling", ("jarný", "jarná", "jarné")),
    Occasion("Autumn", "im Herbst", ("jesenný", "jesenná", "jesenné")),
    Occasion("Open", ("Offener", "Offene", "Offenes"), ("otvorený", "otvorená", "otvorené")),
    Occasion("Late-Night", "zu später Stunde", ("nočný", "nočná", "nočné")),
    Occasion("Family", "für die ganze Familie", ("rodinný", "rodinná", "rodinné")),
    Occasion("Grand", ("Großer", "Große", "Großes"), ("veľký", "veľká", "veľké")),
    Occasion("Acoustic", ("Akustischer", "Akustische", "Akustisches"), ("akustický", "akustická", "akustické")),
    Occasion("Community", "im Viertel", ("susedský", "susedská", "susedské")),
    Occasion("Midweek", "zur Wochenmitte", "v strede týždňa"),
    Occasion("Riverside", "am Fluss", "na nábreží"),
)  # fmt: skip

EVENT_GENRES: tuple[Genre, ...] = (
    Genre("Jazz", "Jazz", ("jazzový", "jazzová", "jazzové")),
    Genre("Rock", "Rock", ("rockový", "rocková", "rockové")),
    Genre("Chess", "Schach", ("šachový", "šachová", "šachové")),
    Genre("Pottery", "Töpfer", ("keramický", "keramická", "keramické")),
    Genre("Poetry", "Lyrik", ("básnický", "básnická", "básnické")),
    Genre("Salsa", "Salsa", ("salsový", "salsová", "salsové")),
    Genre("Photography", "Foto", ("fotografický", "fotografická", "fotografické")),
    Genre("Yoga", "Yoga", ("jogový", "jogová", "jogové")),
    Genre("Wine", "Wein", ("vínny", "vínna", "vínne")),
    Genre("Robotics", "Robotik", ("robotický", "robotická", "robotické")),
    Genre("Folk", "Folk", ("folkový", "folková", "folkové")),
    Genre("Comedy", "Comedy", ("komediálny", "komediálna", "komediálne"), hyphen=True),
    Genre("Baroque", "Barock", ("barokový", "baroková", "barokové")),
    Genre("Street Food", "Streetfood", ("gastronomický", "gastronomická", "gastronomické"), hyphen=True),
    Genre("Cinema", "Kino", ("filmový", "filmová", "filmové")),
    Genre("Science", "Wissenschafts", ("vedecký", "vedecká", "vedecké")),
)  # fmt: skip

EVENT_KINDS: tuple[Kind, ...] = (
    Kind("Night", "Abend", M, "večer", M),
    Kind("Workshop", "Workshop", M, "workshop", M, hyphen=True),
    Kind("Festival", "Festival", N, "festival", M),
    Kind("Meetup", "Treffen", N, "stretnutie", N),
    Kind("Concert", "Konzert", N, "koncert", M),
    Kind("Tour", "Rundgang", M, "vychádzka", F),
    Kind("Market", "Markt", M, "trh", M),
    Kind("Lecture", "Vortrag", M, "prednáška", F),
    Kind("Marathon", "Marathon", M, "maratón", M),
    Kind("Masterclass", "Meisterkurs", M, "kurz", M, hyphen=True),
    Kind("Fair", "Fest", N, "jarmok", M),
    Kind("Showcase", "Schau", F, "prehliadka", F),
)


def _german_title(occasion: Occasion, genre: Genre, kind: Kind) -> str:
    joined = genre.hyphen or kind.hyphen
    noun = f"{genre.de}-{kind.de}" if joined else f"{genre.de}{kind.de.lower()}"
    if isinstance(occasion.de, str):
        return f"{noun} {occasion.de}"
    return f"{occasion.de[kind.de_gender]} {noun}"


def _slovak_title(occasion: Occasion, genre: Genre, kind: Kind) -> str:
    phrase = f"{genre.sk[kind.sk_gender]} {kind.sk}"
    if isinstance(occasion.sk, str):
        phrase = f"{phrase} {occasion.sk}"
    else:
        phrase = f"{occasion.sk[kind.sk_gender]} {phrase}"
    return phrase[0].upper() + phrase[1:]  # Slovak titles capitalise their first word only


def event_titles(occasion: Occasion, genre: Genre, kind: Kind) -> Text3:
    """An event's title in every language (en, de, sk)."""
    english = f"{occasion.en} {genre.en} {kind.en}"
    return english, _german_title(occasion, genre, kind), _slovak_title(occasion, genre, kind)


LINES: tuple[Text3, ...] = (
    (
        "Doors open thirty minutes before the start.",
        "Einlass ist dreißig Minuten vor Beginn.",
        "Vstup je tridsať minút pred začiatkom.",
    ),
    (
        "Bring your friends and family.",
        "Bringen Sie Freunde und Familie mit.",
        "Príďte s priateľmi a rodinou.",
    ),
    (
        "Tickets are available at the entrance.",
        "Karten gibt es am Eingang.",
        "Vstupenky sú k dispozícii pri vchode.",
    ),
    (
        "Suitable for all ages and levels of experience.",
        "Geeignet für alle Altersgruppen und Erfahrungsstufen.",
        "Vhodné pre všetky vekové kategórie a úrovne skúseností.",
    ),
    (
        "Light refreshments will be served.",
        "Es gibt kleine Erfrischungen.",
        "Podávať sa bude malé občerstvenie.",
    ),
    (
        "The programme may change at short notice.",
        "Das Programm kann sich kurzfristig ändern.",
        "Program sa môže na poslednú chvíľu zmeniť.",
    ),
)

# The title quoted, so that no language has to inflect it ("zum"/"zur", Slovak's accusative).
EVENT_INTRO: Text3 = (
    "<p>Join us for the {title} {where}. {line}</p><p>{more}</p>",
    "<p>Wir laden Sie herzlich zu „{title}“ {where} ein. {line}</p><p>{more}</p>",
    "<p>Pozývame vás na podujatie „{title}“ {where}. {line}</p><p>{more}</p>",
)


@dataclass(frozen=True, slots=True)
class City:
    name: Text3
    where: Text3  # "in Vienna": Slovak's locative is the city's own ("vo Viedni")
    country: Text3
    state: str
    lat: float
    lng: float
    zip: str
    phone: str


CITIES: tuple[City, ...] = (
    City(("Vienna", "Wien", "Viedeň"), ("in Vienna", "in Wien", "vo Viedni"), ("Austria", "Österreich", "Rakúsko"), "", 48.2082, 16.3738, "1010", "+43 1"),
    City(("Berlin", "Berlin", "Berlín"), ("in Berlin", "in Berlin", "v Berlíne"), ("Germany", "Deutschland", "Nemecko"), "", 52.52, 13.405, "10117", "+49 30"),
    City(("Bratislava", "Bratislava", "Bratislava"), ("in Bratislava", "in Bratislava", "v Bratislave"), ("Slovakia", "Slowakei", "Slovensko"), "", 48.1486, 17.1077, "811 01", "+421 2"),
    City(("Košice", "Košice", "Košice"), ("in Košice", "in Košice", "v Košiciach"), ("Slovakia", "Slowakei", "Slovensko"), "", 48.7164, 21.2611, "040 01", "+421 55"),
    City(("Prague", "Prag", "Praha"), ("in Prague", "in Prag", "v Prahe"), ("Czechia", "Tschechien", "Česko"), "", 50.0755, 14.4378, "110 00", "+420 2"),
    City(("Munich", "München", "Mníchov"), ("in Munich", "in München", "v Mníchove"), ("Germany", "Deutschland", "Nemecko"), "", 48.1351, 11.582, "80331", "+49 89"),
    City(("New York", "New York", "New York"), ("in New York", "in New York", "v New Yorku"), ("United States", "Vereinigte Staaten", "Spojené štáty"), "NY", 40.7128, -74.006, "10001", "+1 212"),
    City(("London", "London", "Londýn"), ("in London", "in London", "v Londýne"), ("United Kingdom", "Vereinigtes Königreich", "Spojené kráľovstvo"), "", 51.5074, -0.1278, "WC2N 5DU", "+44 20"),
)  # fmt: skip

STREETS = ("Main Street", "Ringstraße", "Hlavná", "Market Square", "Opernring", "Dunajská")

VENUE_KINDS: tuple[Text3, ...] = (
    ("Concert Hall", "Konzerthalle", "Koncertná sála"),
    ("Community Centre", "Bürgerzentrum", "Kultúrne centrum"),
    ("Gallery", "Galerie", "Galéria"),
    ("Town Hall", "Rathaus", "Radnica"),
    ("Park Stage", "Parkbühne", "Pódium v parku"),
    ("Library", "Bibliothek", "Knižnica"),
    ("Arena", "Arena", "Aréna"),
    ("Studio", "Studio", "Štúdio"),
    ("Riverside Pavilion", "Pavillon am Fluss", "Pavilón pri rieke"),
    ("Old Theatre", "Altes Theater", "Staré divadlo"),
)

VENUE_TEXT: Text3 = (
    "A venue {where} with room for {seats} guests.",
    "Ein Veranstaltungsort {where} mit Platz für {seats} Gäste.",
    "Priestor {where} pre {seats} hostí.",
)

ORGANIZER_KINDS: tuple[Text3, ...] = (
    ("Arts Society", "Kunstverein", "Umelecký spolok"),
    ("Music Club", "Musikklub", "Hudobný klub"),
    ("Theatre Company", "Theatergruppe", "Divadelný súbor"),
    ("Sports Club", "Sportverein", "Športový klub"),
    ("Film Society", "Filmklub", "Filmový klub"),
    ("Youth Network", "Jugendforum", "Mládežnícke fórum"),
    ("Culture Office", "Kulturamt", "Kultúrny úrad"),
    ("Book Circle", "Lesekreis", "Čitateľský krúžok"),
)

ORGANIZER_TEXT: Text3 = (
    "Organising events {where} since {year}.",
    "Organisiert seit {year} Veranstaltungen {where}.",
    "Organizuje podujatia {where} od roku {year}.",
)

# "{kind} {city}" reads better in German and Slovak, "{city} {kind}" in English.
PLACE_NAME: Text3 = ("{city} {kind}", "{kind} {city}", "{kind} {city}")

CATEGORIES: tuple[Text3, ...] = (
    ("Concerts", "Konzerte", "Koncerty"),
    ("Theatre", "Theater", "Divadlo"),
    ("Exhibitions", "Ausstellungen", "Výstavy"),
    ("Workshops", "Workshops", "Workshopy"),
    ("Festivals", "Festivals", "Festivaly"),
    ("Sports", "Sport", "Šport"),
    ("Conferences", "Konferenzen", "Konferencie"),
    ("Markets", "Märkte", "Trhy"),
    ("Film", "Film", "Film"),
    ("Family", "Familie", "Rodina"),
    ("Dance", "Tanz", "Tanec"),
    ("Literature", "Literatur", "Literatúra"),
    ("Food and Drink", "Essen und Trinken", "Jedlo a pitie"),
    ("Talks", "Vorträge", "Prednášky"),
    ("Tours", "Führungen", "Prehliadky"),
    ("Comedy", "Kabarett", "Komédia"),
    ("Opera", "Oper", "Opera"),
    ("Kids", "Kinder", "Deti"),
    ("Outdoor", "Open Air", "Pod holým nebom"),
    ("Charity", "Benefiz", "Dobročinnosť"),
    ("Science", "Wissenschaft", "Veda"),
    ("Technology", "Technik", "Technológie"),
    ("Wellness", "Wellness", "Wellness"),
    ("Nightlife", "Nachtleben", "Nočný život"),
    ("Classical", "Klassik", "Klasika"),
)

CATEGORY_TEXT: Text3 = (
    "Events in the category {name}.",
    "Veranstaltungen der Kategorie {name}.",
    "Podujatia v kategórii {name}.",
)

TAGS: tuple[Text3, ...] = (
    ("free entry", "freier Eintritt", "voľný vstup"),
    ("accessible", "barrierefrei", "bezbariérový prístup"),
    ("family friendly", "familienfreundlich", "pre rodiny"),
    ("live music", "Livemusik", "živá hudba"),
    ("vegan", "vegan", "vegánske jedlá"),
    ("in English", "auf Englisch", "v angličtine"),
    ("beginners", "für Anfänger", "pre začiatočníkov"),
    ("advanced", "für Fortgeschrittene", "pre pokročilých"),
    ("outdoors", "im Freien", "vonku"),
    ("indoors", "drinnen", "vnútri"),
    ("students", "für Studierende", "pre študentov"),
    ("seniors", "für Senioren", "pre seniorov"),
    ("weekend", "am Wochenende", "cez víkend"),
    ("evening", "abends", "večer"),
    ("morning", "vormittags", "dopoludnia"),
    ("online", "online", "online"),
    ("hands-on", "zum Mitmachen", "vyskúšajte si"),
    ("premiere", "Premiere", "premiéra"),
    ("limited seats", "begrenzte Plätze", "obmedzený počet miest"),
    ("registration required", "Anmeldung erforderlich", "nutná registrácia"),
    ("local artists", "Künstler aus der Region", "miestni umelci"),
    ("international", "international", "medzinárodné"),
    ("dog friendly", "hundefreundlich", "psy vítané"),
    ("guided", "mit Führung", "so sprievodcom"),
    ("kids under 12", "Kinder unter 12", "deti do 12 rokov"),
    ("networking", "Networking", "networking"),
    ("premium", "Premium", "prémiové miesta"),
    ("new", "neu", "novinka"),
)

# Raw cost inputs, parsed once by the app's own cost parser; None: no cost.
COSTS: tuple[tuple[Any, float], ...] = (
    (None, 0.40),
    ("Free", 0.15),
    ("$15", 0.10),
    ("$5 - $25", 0.07),
    ("20€", 0.08),
    ("€12.50", 0.06),
    (["0$", "20$", "30$"], 0.05),
    ("£8", 0.05),
    ("10 - 30 CHF", 0.02),
    ("Donation", 0.02),
)

STATUSES: tuple[tuple[str, float], ...] = (
    ("publish", 0.86),
    ("draft", 0.06),
    ("pending", 0.04),
    ("private", 0.04),
)
