"""Parameter coercion rules (`app.http.params`), table-driven on small test models.

Pure functions only: no database, no HTTP client.
"""

from typing import Any

import pytest

from app.core.errors import InvalidParams, MissingParams
from app.http.coercion import (
    IdOrSlugList,
    NonEmptyStr,
    PositiveInt,
    PositiveIntList,
    StringList,
    StrOrEmpty,
    WPBool,
    decimal,
)
from app.http.params import Params, parse

LARGEST_ID = 2**62 - 1
LIST_LIMIT = 500


class Flags(Params):
    flag: WPBool = False


class Numbers(Params):
    n: PositiveInt | None = None


class Ids(Params):
    ids: PositiveIntList | None = None


class Refs(Params):
    refs: IdOrSlugList | None = None


class Words(Params):
    words: StringList | None = None


class Texts(Params):
    name: NonEmptyStr | None = None
    text: StrOrEmpty = ""


class Required(Params):
    title: NonEmptyStr
    n: PositiveInt


class Everything(Params):
    flag: WPBool = False
    n: PositiveInt | None = None
    ids: PositiveIntList | None = None
    refs: IdOrSlugList | None = None
    words: StringList | None = None
    name: NonEmptyStr | None = None
    text: StrOrEmpty = ""


Note = tuple[str, dict[str, object]]


def not_of_type(name: str, kind: str) -> Note:
    return ("not_of_type", {"name": name, "type": kind})


def why(key: str, name: str, **values: object) -> Note:
    return (key, {"name": name, **values})


def not_an_id(name: str) -> Note:
    return why("invalid_id", name, max=LARGEST_ID)


def notes(model: type[Params], raw: dict[str, Any]) -> dict[str, Note]:
    with pytest.raises(InvalidParams) as caught:
        parse(model, raw)
    assert caught.value.status == 400
    assert caught.value.code == "rest_invalid_param"
    return caught.value.notes


# ---- WPBool --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(True, True, id="json-true"),
        pytest.param(False, False, id="json-false"),
        pytest.param(1, True, id="int-1"),
        pytest.param(0, False, id="int-0"),
        pytest.param("true", True, id="true"),
        pytest.param("TRUE", True, id="true-upper"),
        pytest.param("false", False, id="false"),
        pytest.param("1", True, id="string-1"),
        pytest.param("0", False, id="string-0"),
        pytest.param("yes", True, id="yes"),
        pytest.param(" Yes ", True, id="yes-trimmed-any-case"),
        pytest.param("no", False, id="no"),
        pytest.param("on", True, id="on"),
        pytest.param("off", False, id="off"),
        pytest.param("OFF", False, id="off-upper"),
        pytest.param("", False, id="empty-is-false"),
    ],
)
def test_wpbool_accepts(value: Any, expected: bool) -> None:
    assert parse(Flags, {"flag": value}).flag is expected


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(2, id="int-2"),
        pytest.param(-1, id="int-minus-1"),
        pytest.param("2", id="string-2"),
        pytest.param("maybe", id="word"),
        pytest.param("t", id="abbreviation-t"),
        pytest.param("y", id="abbreviation-y"),
        pytest.param(None, id="null"),
        pytest.param([], id="empty-list"),
        pytest.param(["1"], id="list"),
        pytest.param({"a": 1}, id="object"),
    ],
)
def test_wpbool_refuses(value: Any) -> None:
    assert notes(Flags, {"flag": value}) == {"flag": not_of_type("flag", "boolean")}


# ---- PositiveInt ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(1, 1, id="int"),
        pytest.param("1", 1, id="string"),
        pytest.param(" 7 ", 7, id="string-with-spaces"),
        pytest.param("007", 7, id="leading-zeros"),
        pytest.param(2.0, 2, id="integral-float"),
        pytest.param(LARGEST_ID, LARGEST_ID, id="largest-id"),
        pytest.param(str(LARGEST_ID), LARGEST_ID, id="largest-id-string"),
        pytest.param(None, None, id="null-is-absent"),
    ],
)
def test_positive_int_accepts(value: Any, expected: int | None) -> None:
    assert parse(Numbers, {"n": value}).n == expected


@pytest.mark.parametrize(
    ("value", "note"),
    [
        pytest.param(0, not_an_id("n"), id="zero"),
        pytest.param("0", not_an_id("n"), id="zero-string"),
        pytest.param(-1, not_an_id("n"), id="negative"),
        pytest.param("-1", not_an_id("n"), id="negative-string"),
        pytest.param(2**62, not_an_id("n"), id="2-pow-62"),
        pytest.param(str(2**62), not_an_id("n"), id="2-pow-62-string"),
        pytest.param(2**63, not_an_id("n"), id="2-pow-63"),
        pytest.param(True, not_of_type("n", "integer"), id="bool-true"),
        pytest.param(False, not_of_type("n", "integer"), id="bool-false"),
        pytest.param("²", not_of_type("n", "integer"), id="superscript-two"),
        pytest.param("١", not_of_type("n", "integer"), id="arabic-indic-one"),
        pytest.param("1.5", not_of_type("n", "integer"), id="decimal-string"),
        pytest.param(1.5, not_of_type("n", "integer"), id="fractional-float"),
        pytest.param("1e3", not_of_type("n", "integer"), id="exponent"),
        pytest.param("+5", not_of_type("n", "integer"), id="plus-sign"),
        pytest.param("abc", not_of_type("n", "integer"), id="word"),
        pytest.param("", not_of_type("n", "integer"), id="empty"),
        pytest.param("1" * 31, not_of_type("n", "integer"), id="31-digits"),
        pytest.param([1], not_of_type("n", "integer"), id="list"),
        pytest.param({"id": 1}, not_of_type("n", "integer"), id="object"),
    ],
)
def test_positive_int_refuses(value: Any, note: Note) -> None:
    assert notes(Numbers, {"n": value}) == {"n": note}


# ---- decimal() -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("12", 12, id="digits"),
        pytest.param(" 12 ", 12, id="spaces-around"),
        pytest.param("-3", -3, id="negative"),
        pytest.param("0", 0, id="zero"),
        pytest.param("1" * 30, int("1" * 30), id="30-digits"),
        pytest.param("1" * 31, None, id="31-digits"),
        pytest.param("", None, id="empty"),
        pytest.param("1 2", None, id="inner-space"),
        pytest.param("+1", None, id="plus-sign"),
        pytest.param("1_000", None, id="underscore"),
        pytest.param("0x10", None, id="hex"),
        pytest.param("1.0", None, id="decimal-point"),
        pytest.param("²", None, id="superscript"),
        pytest.param("١", None, id="arabic-indic"),
    ],
)
def test_decimal(text: str, expected: int | None) -> None:
    assert decimal(text) == expected


# ---- PositiveIntList -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("1,2", [1, 2], id="comma-separated"),
        pytest.param("1, 2 ,3", [1, 2, 3], id="comma-separated-spaces"),
        pytest.param("1,,2", [1, 2], id="empty-items-dropped"),
        pytest.param(["1", "2"], [1, 2], id="repeated-keys"),
        pytest.param([1, "2,3"], [1, 2, 3], id="mixed-list-and-csv"),
        pytest.param(5, [5], id="single-int"),
        pytest.param("5", [5], id="single-string"),
        pytest.param(["1", "1"], [1, 1], id="duplicates-kept"),
        pytest.param(["1"] * LIST_LIMIT, [1] * LIST_LIMIT, id="500-items"),
        pytest.param([LARGEST_ID], [LARGEST_ID], id="largest-id"),
    ],
)
def test_positive_int_list_accepts(value: Any, expected: list[int]) -> None:
    assert parse(Ids, {"ids": value}).ids == expected


@pytest.mark.parametrize(
    ("value", "note"),
    [
        pytest.param("", why("not_empty", "ids"), id="empty-string"),
        pytest.param(",", why("not_empty", "ids"), id="only-commas"),
        pytest.param([], why("not_empty", "ids"), id="empty-list"),
        pytest.param([""], why("not_empty", "ids"), id="list-of-empty"),
        pytest.param("0", not_an_id("ids"), id="zero"),
        pytest.param("1,0", not_an_id("ids"), id="zero-among-others"),
        pytest.param("1,-2", not_an_id("ids"), id="negative"),
        pytest.param([2**62], not_an_id("ids"), id="2-pow-62"),
        pytest.param(True, why("not_a_list", "ids"), id="bool"),
        pytest.param({"a": 1}, why("not_a_list", "ids"), id="object"),
        pytest.param(1.5, why("not_a_list", "ids"), id="float"),
        pytest.param(["1", True], not_of_type("ids", "integer"), id="bool-item"),
        pytest.param(["x"], not_of_type("ids", "integer"), id="word-item"),
        pytest.param([[1]], not_of_type("ids", "integer"), id="nested-list"),
        pytest.param(
            ["1"] * (LIST_LIMIT + 1),
            ("too_many_items", {"name": "ids", "max": LIST_LIMIT}),
            id="501-items",
        ),
        pytest.param(
            ",".join(["1"] * (LIST_LIMIT + 1)),
            ("too_many_items", {"name": "ids", "max": LIST_LIMIT}),
            id="501-comma-separated",
        ),
    ],
)
def test_positive_int_list_refuses(value: Any, note: Note) -> None:
    assert notes(Ids, {"ids": value}) == {"ids": note}


# ---- IdOrSlugList --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("music,1", ["music", 1], id="slug-and-id-csv"),
        pytest.param("music, art", ["music", "art"], id="slugs-csv"),
        pytest.param(["music", 2], ["music", 2], id="list"),
        pytest.param(["music", "2"], ["music", 2], id="digit-string-is-an-id"),
        pytest.param([1, "a,b"], [1, "a", "b"], id="csv-inside-list"),
        pytest.param(["Music"], ["Music"], id="name-kept-as-is"),
        pytest.param(7, [7], id="single-int"),
        pytest.param("²", ["²"], id="non-ascii-digit-is-a-slug"),
    ],
)
def test_id_or_slug_list_accepts(value: Any, expected: list[int | str]) -> None:
    assert parse(Refs, {"refs": value}).refs == expected


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("", id="empty"),
        pytest.param("0", id="zero"),
        pytest.param([0], id="zero-int"),
        pytest.param([-1], id="negative-int"),
        pytest.param("12345678901234567890", id="id-over-2-pow-62"),
        pytest.param("0" * 35, id="too-many-digits"),
        pytest.param([True], id="bool-item"),
        pytest.param([None], id="null-item"),
        pytest.param([1.5], id="float-item"),
        pytest.param([{"id": 1}], id="object-item"),
        pytest.param(["a"] * (LIST_LIMIT + 1), id="501-items"),
    ],
)
def test_id_or_slug_list_refuses(value: Any) -> None:
    assert set(notes(Refs, {"refs": value})) == {"refs"}


# ---- StringList ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("publish, draft", ["publish", "draft"], id="csv-trimmed"),
        pytest.param("a,,b", ["a", "b"], id="empty-items-dropped"),
        pytest.param(["a", "b"], ["a", "b"], id="repeated-keys"),
        pytest.param(["a,b", "c"], ["a", "b", "c"], id="csv-inside-list"),
        pytest.param("one", ["one"], id="single"),
    ],
)
def test_string_list_accepts(value: Any, expected: list[str]) -> None:
    assert parse(Words, {"words": value}).words == expected


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("", id="empty"),
        pytest.param([""], id="list-of-empty"),
        pytest.param([], id="empty-list"),
        pytest.param([1], id="int-item"),
        pytest.param(1, id="int"),
        pytest.param(True, id="bool"),
        pytest.param(["a", None], id="null-item"),
        pytest.param([["a"]], id="nested-list"),
        pytest.param({"a": "b"}, id="object"),
    ],
)
def test_string_list_refuses(value: Any) -> None:
    assert notes(Words, {"words": value})["words"][0] in ("not_empty", "not_text", "not_a_list")


# ---- NonEmptyStr and StrOrEmpty ------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("x", "x", id="text"),
        pytest.param(" x ", " x ", id="spaces-kept"),
        pytest.param(5, "5", id="int-as-text"),
        pytest.param(1.5, "1.5", id="float-as-text"),
        pytest.param("x" * 100_000, "x" * 100_000, id="100000-characters"),
    ],
)
def test_non_empty_str_accepts(value: Any, expected: str) -> None:
    assert parse(Texts, {"name": value}).name == expected


@pytest.mark.parametrize(
    ("value", "note"),
    [
        pytest.param("", why("not_empty", "name"), id="empty"),
        pytest.param("   ", why("not_empty", "name"), id="blank"),
        pytest.param(True, why("not_text", "name"), id="bool"),
        pytest.param([], why("not_text", "name"), id="empty-list"),
        pytest.param(["x"], why("not_text", "name"), id="list"),
        pytest.param({"a": 1}, why("not_text", "name"), id="object"),
        pytest.param(
            "x" * 100_001, ("too_long", {"name": "name", "max": 100_000}), id="over-100000"
        ),
    ],
)
def test_non_empty_str_refuses(value: Any, note: Note) -> None:
    assert notes(Texts, {"name": value}) == {"name": note}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("x", "x", id="text"),
        pytest.param("", "", id="empty"),
        pytest.param(None, "", id="null-is-empty"),
        pytest.param(5, "5", id="int-as-text"),
        pytest.param(1.5, "1.5", id="float-as-text"),
    ],
)
def test_str_or_empty_accepts(value: Any, expected: str) -> None:
    assert parse(Texts, {"text": value}).text == expected


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(True, id="bool-true"),
        pytest.param(False, id="bool-false"),
        pytest.param([], id="empty-list"),
        pytest.param(["x"], id="list"),
        pytest.param({"a": 1}, id="object"),
    ],
)
def test_str_or_empty_refuses(value: Any) -> None:
    assert notes(Texts, {"text": value}) == {"text": why("not_text", "text")}


# ---- NUL characters, anywhere --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        pytest.param("flag", "1\x00", id="bool-word"),
        pytest.param("n", "1\x00", id="int-string"),
        pytest.param("ids", ["1", "2\x00"], id="id-list-item"),
        pytest.param("refs", ["music\x00"], id="slug-item"),
        pytest.param("refs", [{"\x00": 1}], id="object-key-inside-list"),
        pytest.param("words", ["a", "b\x00"], id="string-list-item"),
        pytest.param("name", "a\x00b", id="non-empty-string"),
        pytest.param("text", "\x00", id="string-or-empty"),
        pytest.param("i18n_language", "en\x00", id="base-parameter"),
    ],
)
def test_nul_is_refused(name: str, value: Any) -> None:
    assert notes(Everything, {name: value}) == {name: why("nul_character", name)}


# ---- parse() -------------------------------------------------------------------------


def test_unknown_parameters_are_ignored() -> None:
    parsed = parse(Flags, {"flag": "1", "unknown": "x", "other": [1, {"a": "\x00"}]})
    assert parsed.model_dump() == {"i18n_language": None, "flag": True}


def test_every_bad_parameter_is_named() -> None:
    raw = {"flag": "maybe", "n": 0, "name": "", "text": "fine"}
    assert notes(Everything, raw) == {
        "flag": not_of_type("flag", "boolean"),
        "n": not_an_id("n"),
        "name": why("not_empty", "name"),
    }


@pytest.mark.parametrize(
    ("raw", "missing"),
    [
        pytest.param({}, ["title", "n"], id="both"),
        pytest.param({"title": "x"}, ["n"], id="one"),
        pytest.param({"title": "", "unknown": 1}, ["n"], id="missing-wins-over-invalid"),
    ],
)
def test_missing_parameters(raw: dict[str, Any], missing: list[str]) -> None:
    with pytest.raises(MissingParams) as caught:
        parse(Required, raw)
    assert caught.value.status == 400
    assert caught.value.code == "rest_missing_callback_param"
    assert caught.value.data == {"params": missing}


def test_required_parameters_present() -> None:
    parsed = parse(Required, {"title": "Concert", "n": "3"})
    assert (parsed.title, parsed.n) == ("Concert", 3)


def test_extra_values_override_raw_ones() -> None:
    # Path values are passed as `extra` and are never overridden by the body.
    parsed = parse(Required, {"title": "x", "n": "3"}, n=5)
    assert parsed.n == 5
