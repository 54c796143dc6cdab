"""Every 400 says why: a reason per parameter, in the request language, every invalid
parameter of a request in one response; codes and envelopes stay the reference's."""

from typing import Any

from httpx import AsyncClient

from app.core.errors import validation_note
from app.i18n import API_MESSAGES, LANGUAGES
from tests.factories import API, Auth, AuthFor, create_post

DATE_FORMS = (
    "Accepted: Y-m-d H:i:s, Y-m-d, ISO 8601 (an offset is honoured), a Unix timestamp, or a "
    "relative form such as 'tomorrow 9am' or '+5 days'."
)


def invalid(response: Any) -> dict[str, str]:
    """The reasons of a 400 rest_invalid_param, by parameter (the envelope checked)."""
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert body["data"]["status"] == 400
    assert body["message"].endswith(f": {', '.join(body['data']['params'])}")
    params: dict[str, str] = body["data"]["params"]
    return params


async def test_a_list_names_every_invalid_parameter_at_once(client: AsyncClient) -> None:
    response = await client.get(
        f"{API}/events",
        params={"page": "0", "per_page": "0", "start_date": "next blursday", "orderby": "foo"},
    )
    assert invalid(response) == {
        "page": "page must be greater than or equal to 1.",
        "per_page": "per_page must be between 1 (inclusive) and 100 (inclusive).",
        "start_date": f"start_date is not a date. {DATE_FORMS}",
        "orderby": "orderby is not one of start_date, end_date, title, date, modified, id, distance.",
    }


async def test_unknown_ids_in_list_filters_are_named(client: AsyncClient) -> None:
    response = await client.get(
        f"{API}/events",
        params={
            "venue": "999001",
            "organizer": "999002,999003",
            "categories": "999004,no-such-slug",
            "per_page": "101",
        },
    )
    assert invalid(response) == {
        "per_page": "per_page must be between 1 (inclusive) and 100 (inclusive).",
        "venue": "venue: no venue with ID 999001.",
        "organizer": "organizer: no organizer with ID 999002, 999003.",
        "categories": "categories: no category with the ID or slug 999004, no-such-slug.",
    }


async def test_a_write_names_every_invalid_parameter_at_once(
    client: AsyncClient, editor: AuthFor
) -> None:
    response = await client.post(
        f"{API}/events",
        json={
            "title": "Bad\x00title",
            "start_date": "next blursday",
            "end_date": "2030-01-01 10:00",
            "timezone": "Mars/Olympus",
            "status": "live",
            "venue": [1, 2],
            "organizer": [999005],
            "categories": [999006],
            "website": "ftp://example.org",
        },
        headers=editor.basic,
    )
    assert invalid(response) == {
        "title": "title must not contain a NUL character.",
        "start_date": f"start_date is not a date. {DATE_FORMS}",
        "timezone": "timezone is not a time zone: use an IANA name such as Europe/Berlin, "
        "UTC, or an offset such as UTC+2 or UTC-05:30.",
        "status": "status is not one of publish, future, draft, pending, private, trash.",
        "venue": 'venue takes one venue (an ID, an {"id": ...} object or an inline venue), '
        "not a list of 2.",
        "website": "website must be an http(s) URL, or empty.",
        "categories": "categories: no category with ID 999006.",
        "organizer": "organizer: no organizer with ID 999005.",
    }
    listed = await client.get(f"{API}/events", headers=editor.basic)
    assert listed.json()["total"] == 0  # nothing was written


async def test_dates_and_links_of_a_write(client: AsyncClient, editor: AuthFor) -> None:
    venue = await create_post(client, editor, "venues", venue="Hall")
    dates = {"start_date": "2030-01-02 10:00", "end_date": "2030-01-01 09:00"}
    response = await client.post(
        f"{API}/events",
        json={"title": "Backwards", **dates, "venue": 999007},
        headers=editor.basic,
    )
    assert invalid(response) == {
        "end_date": "end_date (2030-01-01 09:00:00) is before start_date (2030-01-02 10:00:00).",
        "venue": "venue: no venue with ID 999007.",
    }
    inline = await client.post(
        f"{API}/events",
        json={"title": "Inline", **dates, "end_date": "2030-01-02 12:00", "venue": {"city": "X"}},
        headers=editor.basic,
    )
    assert invalid(inline) == {
        "venue": 'venue must be an ID, an {"id": ...} object or an inline record with a venue.'
    }
    good = await client.post(
        f"{API}/events",
        json={"title": "Fine", "start_date": "2030-01-02 10:00", "end_date": "2030-01-02 12:00",
              "venue": venue["id"]},
        headers=editor.basic,
    )  # fmt: skip
    assert good.status_code == 201
    update = await client.post(
        f"{API}/events/{good.json()['id']}",
        json={"end_date": "2030-01-01 00:00", "author": 999008},
        headers=editor.basic,
    )
    assert invalid(update) == {
        "end_date": "end_date (2030-01-01 00:00:00) is before start_date (2030-01-02 10:00:00).",
        "author": "author: no user with ID 999008.",
    }


async def test_reasons_are_in_the_request_language(client: AsyncClient) -> None:
    params = {"per_page": "0", "venue": "999009", "start_date": "nie"}
    german = invalid(await client.get(f"/de{API}/events", params=params))
    assert german == {
        "per_page": "per_page muss zwischen 1 und 100 (jeweils einschließlich) liegen.",
        "start_date": "start_date ist kein Datum. Möglich sind: Y-m-d H:i:s, Y-m-d, ISO 8601 "
        "(ein Versatz wird beachtet), ein Unix-Zeitstempel oder eine relative Angabe wie "
        "'tomorrow 9am' oder '+5 days'.",
        "venue": "venue: Veranstaltungsort mit der ID 999009 existiert nicht.",
    }
    slovak = invalid(await client.get(f"/sk{API}/events", params=params))
    assert slovak["venue"] == "venue: miesto konania s ID 999009 neexistuje."
    assert slovak["per_page"] == "per_page musí byť medzi 1 a 100 (vrátane)."


async def test_json_that_is_not_an_object_and_broken_json(
    client: AsyncClient, editor: AuthFor
) -> None:
    headers = {"Content-Type": "application/json", **editor.basic}
    array = await client.post(f"{API}/events", content=b"[1, 2]", headers=headers)
    broken = await client.post(
        f"{API}/events", content=b'{\n  "title": "x",\n  "start_date": oops\n}', headers=headers
    )
    german = await client.post(f"/de{API}/events", content=b"{", headers=headers)
    slovak = await client.post(f"/sk{API}/events", content=b'"x"', headers=headers)
    for response in (array, broken, german, slovak):
        assert response.status_code == 400
        assert response.json()["code"] == "rest_invalid_json"
        assert response.json()["data"] == {"status": 400}
    assert array.json()["message"] == (
        'The JSON body must be an object of parameters ({"name": value, ...}), not an array.'
    )
    # The parser's own words, then where: line 3, column 17 is the `o` of `oops`.
    assert broken.json()["message"].startswith("Invalid JSON body passed: unexpected character")
    assert broken.json()["message"].endswith(" at line 3, column 17.")
    assert german.json()["message"].startswith("Ungültiger JSON-Inhalt übergeben:")
    assert "Zeile 1, Spalte 2" in german.json()["message"]
    assert slovak.json()["message"].endswith("nie reťazec.")


async def test_by_slug_not_found_names_the_slug(client: AsyncClient, editor: AuthFor) -> None:
    for plural, kind in (("events", "Event"), ("venues", "Venue"), ("organizers", "Organizer")):
        url = f"{API}/{plural}/by-slug/nope"
        for response in (
            await client.get(url),
            await client.post(url, json={"title": "x"}, headers=editor.basic),
            await client.delete(url, headers=editor.basic),
        ):
            assert response.status_code == 404, (plural, response.text)
            assert response.json()["code"] == f"rest-{kind.lower()}-not-found"
            assert response.json()["message"] == f"{kind} with slug nope does not exist."


async def test_a_too_long_slug_says_how_long(client: AsyncClient) -> None:
    response = await client.get(f"{API}/events/by-slug/{'a' * 201}")
    assert invalid(response) == {"slug": "slug must be at most 200 characters long."}


async def test_auth_messages_say_what_is_missing(client: AsyncClient) -> None:
    anonymous = await client.post(f"{API}/events", json={"title": "x"})
    assert anonymous.status_code == 401
    assert anonymous.json()["code"] == "rest_forbidden"  # the reference's code
    assert "without signing in" in anonymous.json()["message"]
    assert "application password" in anonymous.json()["message"]
    for header in ("Basic !!!not-base64", "Basic bm8tY29sb24="):  # the second: "no-colon"
        malformed = await client.get(f"{API}/tags", headers={"Authorization": header})
        assert malformed.status_code == 401
        assert malformed.json()["code"] == "invalid_username"
        assert malformed.json()["message"].startswith("The Authorization header is malformed")
    unknown = await client.get(f"{API}/tags", headers={"Authorization": "Basic bm9ib2R5Ong="})
    assert unknown.json()["code"] == "incorrect_password"  # an unknown login is not revealed
    assert "email" not in unknown.json()["message"]


# ---- issue 32: the messages a first hour met without a reason ------------------------


async def test_no_invalid_parameter_without_a_reason(client: AsyncClient) -> None:
    """The bare "Invalid parameter." is gone from the catalogue (nothing can answer it); the
    two places a first hour met it say why."""
    texts = {
        API_MESSAGES.translations(language).pgettext(key, english)
        for key, english in API_MESSAGES.template().items()
        for language in LANGUAGES
    }
    assert "Invalid parameter." not in texts
    feed = await client.get(f"{API}/events.ics", params={"limit": "999999"})
    assert invalid(feed) == {"limit": "limit must be between 1 (inclusive) and 5000 (inclusive)."}
    changes = await client.get(f"{API}/changes", params={"since": "garbage"})
    assert invalid(changes) == {
        "since": "since is not a token of this feed: send the next_since of an earlier answer "
        "unchanged, or no since to start from now."
    }


def test_a_value_pydantic_refuses_without_a_message_of_ours_keeps_its_reason() -> None:
    for error, expected in (
        ({"type": "int_parsing", "msg": "..."}, "x is not of type integer."),
        ({"type": "less_than_equal", "ctx": {"le": 9}}, "x must be less than or equal to 9."),
        ({"type": "dict_type", "msg": "Input should be a valid dictionary"},
         "x is not valid: input should be a valid dictionary."),
    ):  # fmt: skip
        key, values = validation_note(error, "x")
        assert API_MESSAGES.text(key, "en", **values) == expected


async def test_json_sent_as_a_form_says_so(client: AsyncClient, editor: AuthFor) -> None:
    body = '{"title": "Rooftop Jazz", "start_date": "tomorrow 20:00", "end_date": "tomorrow 23:00"}'
    for content_type, shown in (
        ("application/x-www-form-urlencoded", "application/x-www-form-urlencoded"),
        (None, "missing"),
    ):
        headers = {**editor.basic, **({"Content-Type": content_type} if content_type else {})}
        response = await client.post(f"{API}/events", content=body, headers=headers)
        assert response.status_code == 400
        assert response.json()["code"] == "rest_invalid_body"
        assert response.json()["message"] == (
            "The body looks like JSON but was read as a form, because its Content-Type is "
            f"{shown} (curl -d sends application/x-www-form-urlencoded): send Content-Type: "
            "application/json. Nothing was written."
        )
    # A real form missing a parameter gets the plain message.
    form = await client.post(f"{API}/events", data={"title": "T"}, headers=editor.basic)
    assert form.json()["message"] == "Missing parameter(s): start_date, end_date"


async def test_a_403_names_what_is_needed_and_the_role(client: AsyncClient, auth: Auth) -> None:
    subscriber = await auth("subscriber")
    response = await client.post(f"{API}/venues", json={"venue": "V"}, headers=subscriber.basic)
    assert response.status_code == 403
    assert response.json() == {
        "code": "rest_forbidden",
        "message": "Events, venues, organizers and media are written by contributors, authors, "
        f"editors and administrators; {subscriber.login} is a subscriber.",
        "data": {"status": 403, "role": "subscriber"},
    }
    contributor = await auth("contributor")
    german = await client.post(
        f"{API}/categories",
        json={"name": "Konzerte"},
        headers={**contributor.basic, "Accept-Language": "de"},
    )
    assert german.status_code == 403
    assert german.json()["message"] == (
        "Kategorien verwalten Autoren, Redakteure und Administratoren; "
        f"{contributor.login} ist ein Mitarbeiter."
    )


async def test_a_page_past_the_end_says_how_many_pages(client: AsyncClient) -> None:
    """page=99 of an empty event list (venues: tests/api/test_venues.py, with records)."""
    response = await client.get(
        f"{API}/events", params={"page": 99}, headers={"Accept-Language": "de"}
    )
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "event-archive-page-not-found"
    assert body["message"].endswith(": die Liste hat 0 Seite(n) zu 9 (total_pages).")
    assert body["data"] == {"status": 404, "total": 0, "total_pages": 0}
