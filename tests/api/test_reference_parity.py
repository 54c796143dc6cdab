"""Where almanac now behaves as the reference does: slugs without quotes, trashing frees a
slug, a trashed event is gone for everybody, identical venues and organizers are not created
twice, terms may be renamed to a taken name, JSON-LD addresses without empty parts
(docs/design.md: Slugs, Trash and delete, Records, Responses)."""

from typing import Any

import pytest
from httpx import AsyncClient

from tests.factories import API, NAME_FIELD, Auth, AuthFor
from tests.factories import create_record as create


@pytest.fixture(params=["events", "venues", "organizers"])
def plural(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


async def write(
    client: AsyncClient, who: AuthFor, plural: str, record_id: int, **fields: Any
) -> dict[str, Any]:
    response = await client.patch(f"{API}/{plural}/{record_id}", json=fields, headers=who.basic)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def trash(client: AsyncClient, who: AuthFor, plural: str, record_id: int) -> dict[str, Any]:
    response = await client.delete(f"{API}/{plural}/{record_id}", headers=who.basic)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == "trash"
    return body


# ---- slugs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Last Week's Match", "last-weeks-match"),
        ("Last Week’s Match", "last-weeks-match"),
        ("‘Quoted’ and “Double” Night", "quoted-and-double-night"),
        ('Say "Hi" Again', "say-hi-again"),
        ("Rock'n'Roll Café", "rocknroll-cafe"),
    ],
)
async def test_quotes_are_dropped_from_slugs(
    client: AsyncClient, auth: Auth, plural: str, name: str, slug: str
) -> None:
    editor = await auth("editor")
    record = await create(client, editor, plural, name)
    assert record["slug"] == slug
    assert record[NAME_FIELD[plural]] == name  # the name keeps its quotes
    found = await client.get(f"{API}/{plural}/by-slug/{slug.upper()}", headers=editor.basic)
    assert found.status_code == 200
    assert found.json()["id"] == record["id"]


async def test_quotes_are_dropped_from_sent_slugs_and_term_slugs(
    client: AsyncClient, auth: Auth
) -> None:
    editor = await auth("editor")
    event = await create(client, editor, "events", "Any", slug="Don't Stop")
    assert event["slug"] == "dont-stop"
    renamed = await write(client, editor, "events", event["id"], slug="It’s “Over”")
    assert renamed["slug"] == "its-over"
    for kind in ("categories", "tags"):
        term = await client.post(
            f"{API}/{kind}", json={"name": "Children's Theatre"}, headers=editor.basic
        )
        assert term.status_code == 201
        assert term.json()["slug"] == "childrens-theatre"


# ---- trash and slugs ----------------------------------------------------------------


async def test_trashing_frees_the_slug_and_restoring_gives_it_back(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    first = await create(client, editor, plural, "Harbour Nights", description="First")
    assert first["slug"] == "harbour-nights"
    trashed = await trash(client, editor, plural, first["id"])
    assert trashed["slug"] == "harbour-nights__trashed"
    old = await client.get(f"{API}/{plural}/by-slug/harbour-nights", headers=editor.basic)
    assert old.status_code == 404
    # The slug is free: a new record takes it.
    second = await create(client, editor, plural, "Harbour Nights", description="Second")
    assert second["id"] != first["id"]
    assert second["slug"] == "harbour-nights"
    # Restoring while the slug is taken gives the next free one.
    restored = await write(client, editor, plural, first["id"], status="publish")
    assert (restored["status"], restored["slug"]) == ("publish", "harbour-nights-2")
    # An update to trash renames as a delete does; restoring then gives the slug back.
    by_update = await write(client, editor, plural, second["id"], status="trash")
    assert by_update["slug"] == "harbour-nights__trashed"
    back = await write(client, editor, plural, second["id"], status="draft")
    assert (back["status"], back["slug"]) == ("draft", "harbour-nights")


async def test_two_trashed_records_of_one_slug_and_their_restore(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    first = await create(client, editor, plural, "Twice", description="One")
    assert (await trash(client, editor, plural, first["id"]))["slug"] == "twice__trashed"
    second = await create(client, editor, plural, "Twice", description="Two")
    assert second["slug"] == "twice"
    assert (await trash(client, editor, plural, second["id"]))["slug"] == "twice__trashed-2"
    # Restored with a slug of its own choosing, a record keeps that one.
    chosen = await write(client, editor, plural, second["id"], status="publish", slug="Chosen")
    assert chosen["slug"] == "chosen"
    assert (await write(client, editor, plural, first["id"], status="publish"))["slug"] == "twice"


async def test_a_record_created_in_the_trash_leaves_its_slug_free(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    binned = await create(client, editor, plural, "Binned Idea", status="trash")
    assert (binned["status"], binned["slug"]) == ("trash", "binned-idea__trashed")
    fresh = await create(client, editor, plural, "Binned Idea", description="Fresh")
    assert fresh["slug"] == "binned-idea"
    # A slug sent to a record in the trash: the record still carries the suffix.
    renamed = await write(client, editor, plural, binned["id"], slug="renamed")
    assert (renamed["status"], renamed["slug"]) == ("trash", "renamed__trashed")


async def test_a_trashed_record_goes_by_its_new_slug(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    record = await create(client, editor, plural, "Old Mill")
    await trash(client, editor, plural, record["id"])
    path = f"{API}/{plural}/by-slug/old-mill__trashed"
    read = await client.get(path, headers=editor.basic)
    if plural == "events":
        assert read.status_code == 403
        assert read.json()["code"] == "event-no-longer-available"
    else:  # venues and organizers in the trash are unpublished records
        assert read.status_code == 200
        assert read.json()["id"] == record["id"]
    again = await client.delete(path, headers=editor.basic)
    assert again.status_code == 410
    restored = await client.patch(path, json={"status": "publish"}, headers=editor.basic)
    assert (restored.json()["id"], restored.json()["slug"]) == (record["id"], "old-mill")


# ---- a trashed event is gone for everybody --------------------------------------------


async def test_a_trashed_event_is_no_longer_available_to_anybody(
    client: AsyncClient, auth: Auth
) -> None:
    author = await auth("author")
    event = await create(client, author, "events", "Cancelled Gig")
    trashed = await trash(client, author, "events", event["id"])
    readers = [None, author, await auth("editor"), await auth("administrator")]
    for who in readers:
        headers = who.basic if who else {}
        for path in (f"events/{event['id']}", f"events/by-slug/{trashed['slug']}"):
            response = await client.get(f"{API}/{path}", headers=headers)
            assert response.status_code == 403, (who, path)
            assert response.json() == {
                "code": "event-no-longer-available",
                "message": "This event is no longer available",
                "data": {"status": 403},
            }
    # Editors still find it in the trash list and restore it.
    admin = readers[-1]
    assert admin is not None
    listed = await client.get(f"{API}/events", params={"status": "trash"}, headers=admin.basic)
    assert [item["id"] for item in listed.json()["events"]] == [event["id"]]
    restored = await write(client, admin, "events", event["id"], status="publish")
    assert restored["slug"] == "cancelled-gig"
    assert (await client.get(f"{API}/events/{event['id']}")).status_code == 200


# ---- identical venues and organizers --------------------------------------------------


@pytest.mark.parametrize(
    ("plural", "fields", "same", "different"),
    [
        (
            "venues",
            {"venue": "Grand Hall", "address": "1 Main Street", "city": "Rome", "zip": "00100"},
            {"venue": "grand hall", "address": "Main", "city": "ROME"},
            {"venue": "Grand Hall", "city": "Milan"},
        ),
        (
            "organizers",
            {"organizer": "Jazz Club", "email": "info@jazz.invalid", "phone": "+39 06 1"},
            {"organizer": "JAZZ CLUB", "email": "INFO@jazz.invalid"},
            {"organizer": "Jazz Club", "phone": "+39 06 2"},
        ),
    ],
)
async def test_a_create_identical_to_a_record_answers_that_record(
    client: AsyncClient,
    auth: Auth,
    plural: str,
    fields: dict[str, str],
    same: dict[str, str],
    different: dict[str, str],
) -> None:
    editor = await auth("editor")
    url = f"{API}/{plural}"
    first = await client.post(url, json=fields, headers=editor.basic)
    assert first.status_code == 201
    record = first.json()
    for sent in (fields, same, {**same, "show_map": True, "status": "draft"}):
        again = await client.post(url, json=sent, headers=editor.basic)
        assert again.status_code == 201  # the reference answers 201 with the existing record
        assert again.json() == record
        assert again.headers["Location"] == first.headers["Location"]
    other = await client.post(url, json=different, headers=editor.basic)
    assert other.status_code == 201
    assert other.json()["id"] != record["id"]
    # A trashed record is not reused.
    await trash(client, editor, plural, record["id"])
    renewed = await client.post(url, json=fields, headers=editor.basic)
    assert renewed.json()["id"] not in (record["id"], other.json()["id"])
    assert renewed.json()["status"] == "publish"


async def test_only_records_the_caller_may_read_are_reused(client: AsyncClient, auth: Auth) -> None:
    editor = await auth("editor")
    contributor = await auth("contributor")
    secret = await create(client, editor, "venues", "Back Room", status="draft")
    public = await create(client, editor, "venues", "Front Room")
    theirs = await create(client, contributor, "venues", "Back Room")
    assert theirs["id"] != secret["id"]  # another's draft is neither shown nor reused
    assert theirs["status"] == "draft"
    reused = await create(client, contributor, "venues", "Front Room")
    assert reused["id"] == public["id"]
    own = await create(client, contributor, "venues", "back room")
    assert own["id"] == theirs["id"]
    # The venue of an event payload follows the same rule.
    event = await create(client, contributor, "events", "Gig", venue={"venue": "Back Room"})
    assert event["venue"]["id"] == theirs["id"]


# ---- terms --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["categories", "tags"])
async def test_a_term_may_be_renamed_to_a_taken_name(
    client: AsyncClient, auth: Auth, kind: str
) -> None:
    editor = await auth("editor")
    url = f"{API}/{kind}"
    jazz = (await client.post(url, json={"name": "Jazz"}, headers=editor.basic)).json()
    blues = (await client.post(url, json={"name": "Blues"}, headers=editor.basic)).json()
    renamed = await client.put(f"{url}/{blues['id']}", json={"name": "jazz"}, headers=editor.basic)
    assert renamed.status_code == 200
    assert (renamed.json()["name"], renamed.json()["slug"]) == ("jazz", "blues")
    assert (await client.get(f"{url}/{jazz['id']}")).json()["name"] == "Jazz"
    # Slugs stay unique...
    slug = await client.put(f"{url}/{blues['id']}", json={"slug": "jazz"}, headers=editor.basic)
    assert slug.status_code == 400
    assert slug.json()["data"]["params"] == {
        "slug": "slug jazz is already taken by another term of this taxonomy."
    }
    # ...and a create still refuses a taken name.
    again = await client.post(url, json={"name": "JAZZ"}, headers=editor.basic)
    assert again.status_code == 400
    assert again.json()["code"] == "term_exists"
    assert again.json()["data"]["term_id"] == jazz["id"]


async def test_a_category_may_move_next_to_one_of_its_name(client: AsyncClient, auth: Auth) -> None:
    editor = await auth("editor")
    url = f"{API}/categories"
    music = (await client.post(url, json={"name": "Music"}, headers=editor.basic)).json()
    child = await client.post(
        url, json={"name": "Folk", "parent": music["id"]}, headers=editor.basic
    )
    top = (await client.post(url, json={"name": "Folk"}, headers=editor.basic)).json()
    moved = await client.patch(
        f"{url}/{child.json()['id']}", json={"parent": 0}, headers=editor.basic
    )
    assert moved.status_code == 200
    assert (moved.json()["parent"], moved.json()["slug"]) == (0, "folk")
    assert top["slug"] == "folk-2"


# ---- JSON-LD ------------------------------------------------------------------------


async def test_json_ld_addresses_leave_out_empty_parts(client: AsyncClient, auth: Auth) -> None:
    editor = await auth("editor")
    venue = await create(client, editor, "venues", "Small Stage", city="Rome", country="Italy")
    single = (await client.get(f"{API}/venues/{venue['id']}")).json()["json_ld"]
    expected = {"@type": "PostalAddress", "addressLocality": "Rome", "addressCountry": "Italy"}
    assert single["address"] == expected
    # The reference keeps the other keys, empty or not.
    assert single["telephone"] == single["sameAs"] == ""
    bare = await create(client, editor, "venues", "Bare Stage")
    bare_ld = (await client.get(f"{API}/venues/{bare['id']}")).json()["json_ld"]
    assert bare_ld["address"] == {"@type": "PostalAddress"}
    event = await create(client, editor, "events", "Show", venue=venue["id"])
    event_ld = (await client.get(f"{API}/events/{event['id']}")).json()["json_ld"]
    assert event_ld["location"]["address"] == expected
    assert event_ld["location"] == single


async def test_list_links_carry_the_effective_status_and_booleans_as_digits(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    for _ in range(2):
        await create(client, editor, plural, f"Linked {plural} {_}")
    anonymous = await client.get(f"{API}/{plural}", params={"per_page": 1})
    assert "status=publish" in anonymous.json()["rest_url"]
    assert "status=publish" in anonymous.json()["next_rest_url"]
    signed_in = await client.get(f"{API}/{plural}", params={"per_page": 1}, headers=editor.basic)
    assert "status=any" in signed_in.json()["rest_url"]
    assert "status=any" in signed_in.json()["next_rest_url"]
    asked = await client.get(
        f"{API}/{plural}", params={"status": "publish,draft"}, headers=editor.basic
    )
    assert "status=publish%2Cdraft" in asked.json()["rest_url"]
    flag = "featured" if plural == "events" else "only_with_upcoming"
    flagged = await client.get(f"{API}/{plural}", params={flag: "true"})
    assert f"{flag}=1" in flagged.json()["rest_url"]
    if plural == "events":
        strict = await client.get(f"{API}/events", params={"strict_dates": "true"})
        assert "strict_dates=1" in strict.json()["rest_url"]
