"""The seed's words: titles, places, texts, costs and statuses, one text in every language
(en, de, sk, in the order of LANGUAGES)."""

from dataclasses import dataclass
from typing import Any

# One text in every language, in the order of LANGUAGES (en, de, sk).
Text3 = tuple[str, str, str]

EVENT_ADJECTIVES: tuple[Text3, ...] = (
    ("Summer", "Sommer", "Letný"),
    ("Winter", "Winter", "Zimný"),
    ("Spring", "Frühlings", "Jarný"),
    ("Autumn", "Herbst", "Jesenný"),
    ("Open", "Offenes", "Otvorený"),
    ("Late-Night", "Nächtliches", "Nočný"),
    ("Family", "Familien", "Rodinný"),
    ("Grand", "Großes", "Veľký"),
    ("Acoustic", "Akustisches", "Akustický"),
    ("Community", "Gemeinschafts", "Komunitný"),
    ("Midweek", "Wochenmitte", "Stredotýždňový"),
    ("Riverside", "Flussufer", "Nábrežný"),
)

EVENT_GENRES: tuple[Text3, ...] = (
    ("Jazz", "Jazz", "Jazzový"),
    ("Rock", "Rock", "Rockový"),
    ("Chess", "Schach", "Šachový"),
    ("Pottery", "Töpfer", "Keramický"),
    ("Poetry", "Poesie", "Básnický"),
    ("Salsa", "Salsa", "Salsový"),
    ("Photography", "Fotografie", "Fotografický"),
    ("Yoga", "Yoga", "Jogový"),
    ("Wine", "Wein", "Vínny"),
    ("Robotics", "Robotik", "Robotický"),
    ("Folk", "Volksmusik", "Folkový"),
    ("Comedy", "Kabarett", "Komediálny"),
    ("Baroque", "Barock", "Barokový"),
    ("Street Food", "Streetfood", "Gastro"),
    ("Cinema", "Kino", "Filmový"),
    ("Science", "Wissenschafts", "Vedecký"),
)

EVENT_KINDS: tuple[Text3, ...] = (
    ("Night", "Nacht", "večer"),
    ("Workshop", "Workshop", "workshop"),
    ("Festival", "Festival", "festival"),
    ("Meetup", "Treffen", "stretnutie"),
    ("Concert", "Konzert", "koncert"),
    ("Tour", "Rundgang", "okruh"),
    ("Market", "Markt", "trh"),
    ("Lecture", "Vortrag", "seminár"),
    ("Marathon", "Marathon", "maratón"),
    ("Masterclass", "Meisterkurs", "kurz"),
    ("Fair", "Messe", "jarmok"),
    ("Showcase", "Schau", "program"),
)

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

EVENT_INTRO: Text3 = (
    "<p>Join us for the {title} in {city}. {line}</p><p>{more}</p>",
    "<p>Willkommen zum {title} in {city}. {line}</p><p>{more}</p>",
    "<p>Pozývame vás na {title} v meste {city}. {line}</p><p>{more}</p>",
)


@dataclass(frozen=True, slots=True)
class City:
    name: Text3
    country: Text3
    state: str
    lat: float
    lng: float
    zip: str
    phone: str


CITIES: tuple[City, ...] = (
    City(("Vienna", "Wien", "Viedeň"), ("Austria", "Österreich", "Rakúsko"), "", 48.2082, 16.3738, "1010", "+43 1"),
    City(("Berlin", "Berlin", "Berlín"), ("Germany", "Deutschland", "Nemecko"), "", 52.52, 13.405, "10117", "+49 30"),
    City(("Bratislava", "Bratislava", "Bratislava"), ("Slovakia", "Slowakei", "Slovensko"), "", 48.1486, 17.1077, "811 01", "+421 2"),
    City(("Košice", "Kaschau", "Košice"), ("Slovakia", "Slowakei", "Slovensko"), "", 48.7164, 21.2611, "040 01", "+421 55"),
    City(("Prague", "Prag", "Praha"), ("Czechia", "Tschechien", "Česko"), "", 50.0755, 14.4378, "110 00", "+420 2"),
    City(("Munich", "München", "Mníchov"), ("Germany", "Deutschland", "Nemecko"), "", 48.1351, 11.582, "80331", "+49 89"),
    City(("New York", "New York", "New York"), ("United States", "Vereinigte Staaten", "Spojené štáty"), "NY", 40.7128, -74.006, "10001", "+1 212"),
    City(("London", "London", "Londýn"), ("United Kingdom", "Vereinigtes Königreich", "Spojené kráľovstvo"), "", 51.5074, -0.1278, "WC2N 5DU", "+44 20"),
)  # fmt: skip

STREETS = ("Main Street", "Ringstraße", "Hlavná", "Market Square", "Opernring", "Dunajská")

VENUE_KINDS: tuple[Text3, ...] = (
    ("Concert Hall", "Konzerthalle", "Koncertná sála"),
    ("Community Centre", "Gemeinschaftszentrum", "Komunitné centrum"),
    ("Gallery", "Galerie", "Galéria"),
    ("Town Hall", "Rathaus", "Radnica"),
    ("Park Stage", "Parkbühne", "Pódium v parku"),
    ("Library", "Bibliothek", "Knižnica"),
    ("Arena", "Arena", "Aréna"),
    ("Studio", "Studio", "Štúdio"),
    ("Riverside Pavilion", "Flusspavillon", "Pavilón pri rieke"),
    ("Old Theatre", "Altes Theater", "Staré divadlo"),
)

VENUE_TEXT: Text3 = (
    "A venue in {city} with room for {seats} guests.",
    "Ein Veranstaltungsort in {city} mit Platz für {seats} Gäste.",
    "Priestor v meste {city} pre {seats} hostí.",
)

ORGANIZER_KINDS: tuple[Text3, ...] = (
    ("Arts Society", "Kunstverein", "Umelecký spolok"),
    ("Music Club", "Musikklub", "Hudobný klub"),
    ("Theatre Company", "Theaterkompanie", "Divadelná spoločnosť"),
    ("Sports Club", "Sportverein", "Športový klub"),
    ("Film Society", "Filmgesellschaft", "Filmový spolok"),
    ("Youth Network", "Jugendnetzwerk", "Mládežnícka sieť"),
    ("Culture Office", "Kulturamt", "Kultúrny úrad"),
    ("Book Circle", "Lesekreis", "Čitateľský krúžok"),
)

ORGANIZER_TEXT: Text3 = (
    "Organising events in {city} since {year}.",
    "Organisiert Veranstaltungen in {city} seit {year}.",
    "Organizuje podujatia v meste {city} od roku {year}.",
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
    ("Outdoor", "Im Freien", "Vonku"),
    ("Charity", "Wohltätigkeit", "Charita"),
    ("Science", "Wissenschaft", "Veda"),
    ("Technology", "Technik", "Technológie"),
    ("Wellness", "Wellness", "Wellness"),
    ("Nightlife", "Nachtleben", "Nočný život"),
    ("Classical", "Klassik", "Klasika"),
)

CATEGORY_TEXT: Text3 = (
    "Everything about {name}.",
    "Alles rund um {name}.",
    "Všetko o téme {name}.",
)

TAGS: tuple[Text3, ...] = (
    ("free entry", "freier Eintritt", "voľný vstup"),
    ("accessible", "barrierefrei", "bezbariérové"),
    ("family friendly", "familienfreundlich", "pre rodiny"),
    ("live music", "Livemusik", "živá hudba"),
    ("vegan", "vegan", "vegánske"),
    ("in English", "auf Englisch", "v angličtine"),
    ("beginners", "Anfänger", "začiatočníci"),
    ("advanced", "Fortgeschrittene", "pokročilí"),
    ("outdoors", "draußen", "vonku"),
    ("indoors", "drinnen", "vnútri"),
    ("students", "Studierende", "študenti"),
    ("seniors", "Senioren", "seniori"),
    ("weekend", "Wochenende", "víkend"),
    ("evening", "Abend", "večer"),
    ("morning", "Morgen", "ráno"),
    ("online", "online", "online"),
    ("hands-on", "zum Mitmachen", "prakticky"),
    ("premiere", "Premiere", "premiéra"),
    ("limited seats", "begrenzte Plätze", "obmedzený počet miest"),
    ("registration required", "Anmeldung erforderlich", "nutná registrácia"),
    ("local artists", "lokale Künstler", "miestni umelci"),
    ("international", "international", "medzinárodné"),
    ("dog friendly", "hundefreundlich", "psy vítané"),
    ("guided", "geführt", "so sprievodcom"),
    ("kids under 12", "Kinder unter 12", "deti do 12 rokov"),
    ("networking", "Networking", "networking"),
    ("premium", "Premium", "prémiové"),
    ("new", "neu", "nové"),
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
