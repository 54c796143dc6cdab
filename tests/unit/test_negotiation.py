"""The one rule of a request's language (app/i18n/negotiation.py), as the API, the pages and
the desk apply it."""

import pytest

from app.i18n import UnknownLanguage, accepted_language, negotiate, prefix_language


def test_what_the_request_names_wins_over_the_header() -> None:
    assert negotiate("en", "sk", "de") == "sk"
    assert negotiate("en", None, "de-AT, en;q=0.5") == "de"
    assert negotiate("de", None, None) == "de"
    assert negotiate("de", None, "fr") == "de"


def test_a_language_the_site_does_not_have_is_refused() -> None:
    with pytest.raises(UnknownLanguage):
        negotiate("en", "fr", "de")


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("de;q=0.5, sk;q=0.8", "sk"),  # the highest q
        ("de, sk", "de"),  # the earlier on a tie
        ("sk;q=0, *", None),  # refused; * is the default
        ("de;q=0, de-AT", None),  # a refused language stays refused
        ("de;q=2, sk;q=x, en;q=0.1", "en"),  # malformed q values are skipped
        ("", None),
    ],
)
def test_accept_language(header: str, chosen: str | None) -> None:
    assert accepted_language(header) == chosen


def test_a_path_names_a_language_by_its_first_segment() -> None:
    assert prefix_language("/de/events/") == "de"
    assert prefix_language("/desk/") is None
    assert prefix_language("/fr/events/") is None
    assert prefix_language("/") is None
