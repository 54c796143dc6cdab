"""The demo's German and Slovak titles are phrases of those languages, not the English
words one by one ("Wochenmitte Wissenschafts Nacht"): German makes one compound of genre and
kind and inflects or places the occasion; Slovak's adjectives agree with the noun."""

import itertools

import pytest

from app.seed.vocabulary import (
    CITIES,
    EVENT_ADJECTIVES,
    EVENT_GENRES,
    EVENT_INTRO,
    EVENT_KINDS,
    event_titles,
)

GERMAN_ENDINGS = ("er", "e", "es")  # strong nominative, masculine, feminine, neuter
SLOVAK_ENDINGS = (("ý", "y"), ("á", "a"), ("é", "e"))  # hard and soft (vínny) adjectives


def test_the_issues_example_reads_as_german_and_slovak() -> None:
    midweek, science, night = EVENT_ADJECTIVES[10], EVENT_GENRES[15], EVENT_KINDS[0]
    assert (midweek.en, science.en, night.en) == ("Midweek", "Science", "Night")
    assert event_titles(midweek, science, night) == (
        "Midweek Science Night",
        "Wissenschaftsabend zur Wochenmitte",
        "Vedecký večer v strede týždňa",
    )


@pytest.mark.parametrize(
    ("indexes", "german", "slovak"),
    [
        ((7, 14, 11), "Große Kinoschau", "Veľká filmová prehliadka"),
        ((0, 0, 4), "Jazzkonzert im Sommer", "Letný jazzový koncert"),
        ((6, 2, 3), "Schachtreffen für die ganze Familie", "Rodinné šachové stretnutie"),
        ((4, 3, 1), "Offener Töpfer-Workshop", "Otvorený keramický workshop"),
        ((8, 12, 2), "Akustisches Barockfestival", "Akustický barokový festival"),
        ((11, 13, 6), "Streetfood-Markt am Fluss", "Gastronomický trh na nábreží"),
    ],
)
def test_titles_agree_with_their_nouns(
    indexes: tuple[int, int, int], german: str, slovak: str
) -> None:
    occasion, genre, kind = indexes
    titles = event_titles(EVENT_ADJECTIVES[occasion], EVENT_GENRES[genre], EVENT_KINDS[kind])
    assert titles[1:] == (german, slovak)


def test_every_title_is_composed_by_the_rules() -> None:
    for occasion, genre, kind in itertools.product(EVENT_ADJECTIVES, EVENT_GENRES, EVENT_KINDS):
        english, german, slovak = event_titles(occasion, genre, kind)
        assert english == f"{occasion.en} {genre.en} {kind.en}"
        # German: genre and kind are one word, never two side by side.
        compound = f"{genre.de}-{kind.de}" if "-" in german else f"{genre.de}{kind.de.lower()}"
        assert compound in german.split(" "), german
        if isinstance(occasion.de, tuple):
            adjective = occasion.de[kind.de_gender]
            assert german == f"{adjective} {compound}"
            assert adjective.endswith(GERMAN_ENDINGS[kind.de_gender]), german
        else:
            assert german == f"{compound} {occasion.de}"
        # Slovak: the first word capitalised only, every adjective agreeing with the noun.
        assert slovak[0].isupper(), slovak
        assert slovak[1:] == slovak[1:].lower(), slovak
        words = slovak.lower().split(" ")
        before_noun = words[: words.index(kind.sk)]
        assert before_noun, slovak
        endings = SLOVAK_ENDINGS[kind.sk_gender]
        assert all(word.endswith(endings) for word in before_noun), slovak


def test_descriptions_quote_the_title_and_say_where() -> None:
    vienna = CITIES[0]
    german = EVENT_INTRO[1].format(
        title="Jazzabend im Sommer", where=vienna.where[1], line="", more=""
    )
    slovak = EVENT_INTRO[2].format(
        title="Letný jazzový večer", where=vienna.where[2], line="", more=""
    )
    assert "Wir laden Sie herzlich zu „Jazzabend im Sommer“ in Wien ein." in german
    assert "Pozývame vás na podujatie „Letný jazzový večer“ vo Viedni." in slovak
