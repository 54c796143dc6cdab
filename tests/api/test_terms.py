"""Categories and tags through HTTP: every route, parameter, role and error path."""

from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession

from tests.factories import API, Auth, AuthFor, make_event


async def create(
    client: AsyncClient, who: AuthFor, kind: str = "categories", **fields: Any
) -> dict[str, Any]:
    response = await client.post(f"{API}/{kind}", json=fields, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_empty_list_answers_the_envelope(client: AsyncClient) -> None:
    for kind in ("categories", "tags"):
        response = await client.get(f"{API}/{kind}", params={"hide_empty": "false"})
        assert response.status_code == 200
        body = response.json()
        assert list(body) == ["rest_url", "total", "total_pages", kind]
        assert body[kind] == []
        assert body["total"] == 0
        assert body["total_pages"] == 0
        assert response.headers["X-TEC-Total"] == "0"
        assert response.headers["X-TEC-TotalPages"] == "0"
        assert response.headers["X-WP-Total"] == "0"
        # No paging links; only the API root's, which every response carries.
        assert response.headers.get_list("Link") == [
            '<http://testserver/>; rel="https://api.w.org/"'
        ]


async def test_create_category_returns_the_reference_shape(
    client: AsyncClient, editor: AuthFor
) -> None:
    parent = await create(client, editor, name="Music")
    response = await client.post(
        f"{API}/categories",
        json={
            "name": "Jazz",
            "description": "Jazz nights",
            "slug": "jazz-nights",
            "parent": parent["id"],
        },
        headers=editor.basic,
    )
    assert response.status_code == 201
    body = response.json()
    assert list(body) == [
        "id", "count", "description", "name", "slug", "taxonomy", "parent", "meta", "url", "urls", "_links",
    ]  # fmt: skip
    assert body["name"] == "Jazz"
    assert body["slug"] == "jazz-nights"
    assert body["description"] == "Jazz nights"
    assert body["taxonomy"] == "tribe_events_cat"
    assert body["parent"] == parent["id"]
    assert body["count"] == 0
    assert body["meta"] == []
    assert body["url"] == "http://testserver/events/category/jazz-nights/"
    self_url = f"http://testserver{API}/categories/{body['id']}"
    assert body["urls"] == {
        "self": self_url,
        "collection": f"http://testserver{API}/categories",
        "up": f"http://testserver{API}/categories/{parent['id']}",
    }
    assert body["_links"]["self"][0]["href"] == self_url
    assert response.headers["Location"] == self_url


async def test_tag_has_no_parent_and_refuses_one(client: AsyncClient, editor: AuthFor) -> None:
    tag = await create(client, editor, "tags", name="Outdoor")
    assert "parent" not in tag
    assert tag["taxonomy"] == "post_tag"
    assert tag["url"] == "http://testserver/events/tag/outdoor/"
    response = await client.post(
        f"{API}/tags", json={"name": "Indoor", "parent": tag["id"]}, headers=editor.basic
    )
    assert response.status_code == 400
    assert response.json()["code"] == "rest_taxonomy_not_hierarchical"


@pytest.mark.parametrize(
    ("role", "kind", "status"),
    [
        ("administrator", "categories", 201),
        ("editor", "categories", 201),
        ("author", "categories", 201),
        ("contributor", "categories", 403),
        ("subscriber", "categories", 403),
        ("administrator", "tags", 201),
        ("editor", "tags", 201),
        ("author", "tags", 403),
        ("contributor", "tags", 403),
        ("subscriber", "tags", 403),
    ],
)
async def test_create_capability_per_role(
    client: AsyncClient, auth: Auth, role: str, kind: str, status: int
) -> None:
    who = await auth(role)
    response = await client.post(f"{API}/{kind}", json={"name": "Termy"}, headers=who.basic)
    assert response.status_code == status
    if status == 403:
        assert response.json()["code"] == "rest_forbidden"
        needed = "Categories are managed by authors" if kind == "categories" else "Tags are"
        assert response.json()["message"].startswith(needed)
        article = "an" if role[0] in "aeiou" else "a"
        assert response.json()["message"].endswith(f"; {who.login} is {article} {role}.")
        assert response.json()["data"] == {"status": 403, "role": role}


async def test_anonymous_writes_are_401_whatever_the_payload(
    client: AsyncClient, editor: AuthFor
) -> None:
    term = await create(client, editor, name="Kept")
    for method, path, payload in [
        ("POST", f"{API}/categories", {}),
        ("POST", f"{API}/tags", {"name": ""}),
        ("PUT", f"{API}/categories/{term['id']}", {"name": ""}),
        ("PATCH", f"{API}/categories/999999", {}),
        ("DELETE", f"{API}/categories/{term['id']}", None),
    ]:
        response = await client.request(method, path, json=payload)
        assert response.status_code == 401, (method, path)
        assert response.json()["code"] == "rest_forbidden"


@pytest.mark.parametrize(
    ("payload", "code", "param"),
    [
        ({}, "rest_missing_callback_param", "name"),
        ({"name": ""}, "rest_invalid_param", "name"),
        ({"name": "   "}, "rest_invalid_param", "name"),
        ({"name": "A", "description": ""}, "rest_invalid_param", "description"),
        ({"name": "A", "slug": ""}, "rest_invalid_param", "slug"),
        ({"name": "A", "parent": ""}, "rest_invalid_param", "parent"),
        ({"name": "A", "parent": "foo"}, "rest_invalid_param", "parent"),
        ({"name": "A", "parent": 2389}, "rest_invalid_param", "parent"),
        ({"name": "A", "parent": -1}, "rest_invalid_param", "parent"),
        ({"name": ["A"]}, "rest_invalid_param", "name"),
        ({"name": "x" * 201}, "rest_invalid_param", "name"),
    ],
)
async def test_create_validation(
    client: AsyncClient, editor: AuthFor, payload: dict[str, Any], code: str, param: str
) -> None:
    response = await client.post(f"{API}/categories", json=payload, headers=editor.basic)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == code
    assert body["data"]["status"] == 400
    if code == "rest_missing_callback_param":
        assert body["data"]["params"] == [param]
        assert body["message"] == f"Missing parameter(s): {param}"
    else:
        assert param in body["data"]["params"]
        assert body["message"] == f"Invalid parameter(s): {param}"


async def test_duplicate_name_is_term_exists(client: AsyncClient, editor: AuthFor) -> None:
    first = await create(client, editor, name="Theatre")
    response = await client.post(
        f"{API}/categories", json={"name": "theatre"}, headers=editor.basic
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "term_exists"
    assert body["data"]["term_id"] == first["id"]
    # The same name under another parent is a different category...
    child = await create(client, editor, name="Theatre", parent=first["id"])
    assert child["slug"] == "theatre-2"
    # ...but not twice under the same one.
    again = await client.post(
        f"{API}/categories", json={"name": "THEATRE", "parent": first["id"]}, headers=editor.basic
    )
    assert again.json()["code"] == "term_exists"
    assert again.json()["message"].endswith("with this parent.")
    tag_response = await client.post(f"{API}/tags", json={"name": "Theatre"}, headers=editor.basic)
    assert tag_response.status_code == 201  # taxonomies are separate


async def test_slugs_are_generated_ascii_and_unique(client: AsyncClient, editor: AuthFor) -> None:
    first = await create(client, editor, name="Café Zürich")
    assert first["slug"] == "cafe-zurich"
    second = await create(client, editor, name="Other", slug="cafe-zurich")
    assert second["slug"] == "cafe-zurich-2"
    third = await create(client, editor, name="Third", slug="Café Zürich")
    assert third["slug"] == "cafe-zurich-3"


async def test_get_single_and_not_found(client: AsyncClient, editor: AuthFor) -> None:
    term = await create(client, editor, name="Single")
    response = await client.get(f"{API}/categories/{term['id']}")
    assert response.status_code == 200
    assert response.json() == term
    missing = await client.get(f"{API}/categories/999999")
    assert missing.status_code == 404
    assert missing.json() == {
        "code": "rest-category-not-found",
        "message": "Category with ID 999999 does not exist.",
        "data": {"status": 404},
    }
    tag = await create(client, editor, "tags", name="A tag")
    assert (await client.get(f"{API}/categories/{tag['id']}")).status_code == 404
    wrong_kind = await client.get(f"{API}/tags/{term['id']}")
    assert wrong_kind.json()["code"] == "rest-tag-not-found"
    huge = await client.get(f"{API}/categories/99999999999999999999999")
    assert huge.status_code == 404
    for bad in ("foo", "foo%20bar", "1.5", "-3"):
        response = await client.get(f"{API}/categories/{bad}")
        assert response.status_code == 404
        assert response.json()["code"] == "rest_no_route"


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
async def test_update_is_partial(client: AsyncClient, editor: AuthFor, method: str) -> None:
    parent = await create(client, editor, name="Parent")
    term = await create(client, editor, name="Old", description="Kept", parent=parent["id"])
    response = await client.request(
        method, f"{API}/categories/{term['id']}", json={"name": "New"}, headers=editor.basic
    )
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "New"
    assert body["description"] == "Kept"
    assert body["parent"] == parent["id"]
    assert body["slug"] == "old"  # renaming keeps the slug
    moved = await client.request(
        method,
        f"{API}/categories/{term['id']}",
        json={"parent": 0, "slug": "renamed"},
        headers=editor.basic,
    )
    assert moved.json()["parent"] == 0
    assert moved.json()["slug"] == "renamed"
    assert "up" not in moved.json()["urls"]


async def test_update_errors(client: AsyncClient, editor: AuthFor, auth: Auth) -> None:
    a = await create(client, editor, name="Alpha")
    b = await create(client, editor, name="Beta", parent=a["id"])
    url = f"{API}/categories/{a['id']}"
    taken = await client.put(url, json={"name": "beta"}, headers=editor.basic)
    assert taken.status_code == 200  # Beta lives under Alpha, not at the top level
    # An update may give a term a name taken next to it, as in WordPress (a create may not).
    beside = await client.put(
        f"{API}/categories/{b['id']}", json={"parent": 0}, headers=editor.basic
    )
    assert beside.status_code == 200
    assert beside.json()["parent"] == 0
    back = await client.put(f"{API}/categories/{b['id']}", json={"parent": a["id"]}, headers=editor.basic)  # fmt: skip
    assert back.json()["parent"] == a["id"]
    loop = await client.put(url, json={"parent": b["id"]}, headers=editor.basic)
    assert loop.status_code == 400
    self_parent = await client.put(url, json={"parent": a["id"]}, headers=editor.basic)
    assert self_parent.status_code == 400
    slug_taken = await client.put(url, json={"slug": b["slug"]}, headers=editor.basic)
    assert slug_taken.status_code == 400
    assert slug_taken.json()["data"]["params"] == {
        "slug": f"slug {b['slug']} is already taken by another term of this taxonomy."
    }
    for payload in ({"name": ""}, {"description": ""}, {"slug": ""}, {"parent": "2389"}):
        response = await client.patch(url, json=payload, headers=editor.basic)
        assert response.status_code == 400, payload
    missing = await client.put(f"{API}/categories/424242", json={"name": "x"}, headers=editor.basic)
    assert missing.status_code == 404
    for role in ("contributor", "subscriber"):
        who = await auth(role)
        response = await client.put(url, json={"name": "Nope"}, headers=who.basic)
        assert response.status_code == 403
    unchanged = await client.get(url)
    assert unchanged.json()["name"] == "beta"


async def test_delete_is_permanent_and_returns_the_former_term(
    client: AsyncClient, editor: AuthFor, auth: Auth, db: AsyncSession
) -> None:
    top = await create(client, editor, name="Top")
    middle = await create(client, editor, name="Middle", parent=top["id"])
    leaf = await create(client, editor, name="Leaf", parent=middle["id"])
    await make_event(db, term_ids=[middle["id"]])
    for role in ("contributor", "subscriber"):
        who = await auth(role)
        response = await client.delete(f"{API}/categories/{middle['id']}", headers=who.basic)
        assert response.status_code == 403
    response = await client.delete(f"{API}/categories/{middle['id']}", headers=editor.basic)
    assert response.status_code == 200
    former = response.json()
    assert former["id"] == middle["id"]
    assert former["count"] == 1
    assert former["parent"] == top["id"]
    assert "_links" not in former
    gone = await client.get(f"{API}/categories/{middle['id']}")
    assert gone.status_code == 404
    again = await client.delete(f"{API}/categories/{middle['id']}", headers=editor.basic)
    assert again.status_code == 404
    # The orphan moves up to its grandparent, as WordPress does.
    assert (await client.get(f"{API}/categories/{leaf['id']}")).json()["parent"] == top["id"]


async def test_count_is_published_events_and_hide_empty_defaults_to_true(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    used = await create(client, editor, name="Used")
    drafts_only = await create(client, editor, name="Drafts only")
    await create(client, editor, name="Unused")
    await make_event(db, term_ids=[used["id"], drafts_only["id"]])
    await make_event(db, term_ids=[used["id"]])
    await make_event(db, status="draft", term_ids=[used["id"], drafts_only["id"]])
    default = (await client.get(f"{API}/categories")).json()
    assert [(t["name"], t["count"]) for t in default["categories"]] == [
        ("Drafts only", 1),
        ("Used", 2),
    ]
    await make_event(db, status="trash", term_ids=[drafts_only["id"]])
    everything = await client.get(f"{API}/categories", params={"hide_empty": "0"})
    assert [t["name"] for t in everything.json()["categories"]] == ["Drafts only", "Unused", "Used"]
    bad = await client.get(f"{API}/categories", params={"hide_empty": "maybe"})
    assert bad.status_code == 400
    assert bad.json()["data"]["params"] == {"hide_empty": "hide_empty is not of type boolean."}


async def test_pagination_links_and_headers(client: AsyncClient, editor: AuthFor) -> None:
    for number in range(1, 10):
        await create(client, editor, "tags", name=f"Tag {number}")
    base = f"http://testserver{API}/tags/"
    pages = []
    for page in (1, 2, 3):
        response = await client.get(
            f"{API}/tags", params={"hide_empty": "false", "per_page": 3, "page": page}
        )
        assert response.status_code == 200
        assert response.headers["X-TEC-Total"] == "9"
        assert response.headers["X-WP-TotalPages"] == "3"
        pages.append(response)
    first, second, third = (p.json() for p in pages)
    assert first["total"] == 9
    assert first["total_pages"] == 3
    assert [t["name"] for t in first["tags"]] == ["Tag 1", "Tag 2", "Tag 3"]
    assert first["next_rest_url"] == f"{base}?hide_empty=0&per_page=3&page=2"
    assert "previous_rest_url" not in first
    assert second["previous_rest_url"] == f"{base}?hide_empty=0&per_page=3"
    assert second["next_rest_url"] == f"{base}?hide_empty=0&per_page=3&page=3"
    assert third["previous_rest_url"] == f"{base}?hide_empty=0&per_page=3&page=2"
    assert "next_rest_url" not in third
    assert list(third)[-1] == "previous_rest_url"
    link = pages[1].headers["Link"]
    assert f'<{base}?hide_empty=0&per_page=3>; rel="first"' in link
    assert 'rel="prev"' in link
    assert 'rel="next"' in link
    assert f'<{base}?hide_empty=0&per_page=3&page=3>; rel="last"' in link
    beyond = await client.get(
        f"{API}/tags", params={"hide_empty": "false", "per_page": 3, "page": 4}
    )
    assert beyond.status_code == 404
    assert beyond.json()["code"] == "tag-archive-page-not-found"
    cat_beyond = await client.get(f"{API}/categories", params={"page": 2})
    assert cat_beyond.json()["code"] == "category-archive-page-not-found"


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"page": "0"}, "page"),
        ({"page": "-1"}, "page"),
        ({"page": "foo"}, "page"),
        ({"page": "foo bar"}, "page"),
        ({"per_page": "0"}, "per_page"),
        ({"per_page": "101"}, "per_page"),
        ({"per_page": "foo"}, "per_page"),
        ({"order": ""}, "order"),
        ({"order": "sideways"}, "order"),
        ({"orderby": ""}, "orderby"),
        ({"orderby": "colour"}, "orderby"),
        ({"search": ""}, "search"),
        ({"include": "foo-bar,23"}, "include"),
        ({"include": "999999"}, "include"),
        ({"exclude": "999999"}, "exclude"),
        ({"parent": ""}, "parent"),
        ({"parent": "2389"}, "parent"),
        ({"post": ""}, "post"),
        ({"post": "23"}, "post"),
        ({"event": "foo"}, "event"),
        ({"slug": ""}, "slug"),
    ],
)
async def test_list_parameter_validation(
    client: AsyncClient, params: dict[str, str], param: str
) -> None:
    response = await client.get(f"{API}/categories", params=params)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == [param]


async def test_list_filters(client: AsyncClient, editor: AuthFor, db: AsyncSession) -> None:
    foo = await create(client, editor, name="Foo")
    bar = await create(client, editor, name="bar")
    baz = await create(client, editor, name="Baz", parent=bar["id"])
    one = await create(client, editor, name="One", slug="foo-bar")
    everything = {"hide_empty": "false"}

    async def names(**params: Any) -> list[str]:
        response = await client.get(f"{API}/categories", params={**everything, **params})
        assert response.status_code == 200, response.text
        return [t["name"] for t in response.json()["categories"]]

    assert await names() == ["bar", "Baz", "Foo", "One"]  # case-insensitive name order
    assert await names(search="foo") == ["Foo", "One"]  # name or slug
    assert await names(search="BAZ") == ["Baz"]  # case-insensitive
    assert await names(search="zoot") == []
    assert await names(exclude=str(foo["id"])) == ["bar", "Baz", "One"]
    assert await names(exclude=f"{foo['id']},{bar['id']}") == ["Baz", "One"]
    assert await names(include=f"{foo['id']}, {baz['id']}") == ["Baz", "Foo"]
    assert await names(order="desc") == ["One", "Foo", "Baz", "bar"]
    assert await names(orderby="id") == ["Foo", "bar", "Baz", "One"]
    assert await names(orderby="id", order="DESC") == ["One", "Baz", "bar", "Foo"]
    assert await names(orderby="slug") == ["bar", "Baz", "Foo", "One"]
    assert await names(parent=str(bar["id"])) == ["Baz"]
    assert await names(parent="0") == ["bar", "Foo", "One"]
    assert await names(slug="foo-bar") == ["One"]
    assert await names(slug="nothing") == []
    first = await make_event(db, term_ids=[foo["id"], one["id"]])
    second = await make_event(db, term_ids=[baz["id"]])
    assert await names(post=str(first)) == ["Foo", "One"]
    assert await names(event=str(second)) == ["Baz"]
    assert await names(post=str(first), event=str(second)) == ["Baz"]  # event wins
    listed = await client.get(
        f"{API}/categories", params={**everything, "include[]": [str(foo["id"]), str(one["id"])]}
    )
    assert listed.json()["total"] == 2
    arrays = await client.get(
        f"{API}/categories",
        params=[("exclude", str(foo["id"])), ("exclude", str(one["id"])), ("hide_empty", "0")],
    )
    assert [t["name"] for t in arrays.json()["categories"]] == ["bar", "Baz"]


async def test_event_filter_does_not_reveal_drafts(
    client: AsyncClient, editor: AuthFor, auth: Auth, db: AsyncSession
) -> None:
    term = await create(client, editor, name="Secret plans")
    draft = await make_event(db, status="draft", term_ids=[term["id"]])
    anonymous = await client.get(f"{API}/categories", params={"post": draft, "hide_empty": "0"})
    assert anonymous.status_code == 400
    subscriber = await auth("subscriber")
    response = await client.get(
        f"{API}/categories", params={"post": draft, "hide_empty": "0"}, headers=subscriber.basic
    )
    assert response.status_code == 400
    allowed = await client.get(
        f"{API}/categories", params={"post": draft, "hide_empty": "0"}, headers=editor.basic
    )
    assert [t["name"] for t in allowed.json()["categories"]] == ["Secret plans"]
    # Drafts do not count, so the term stays hidden from the default list.
    assert (await client.get(f"{API}/categories")).json()["total"] == 0


async def test_writes_accept_form_and_query_parameters(
    client: AsyncClient, editor: AuthFor
) -> None:
    form = await client.post(
        f"{API}/categories",
        data={"name": "From a form", "description": "Form text"},
        headers=editor.basic,
    )
    assert form.status_code == 201
    assert form.json()["description"] == "Form text"
    query = await client.post(f"{API}/tags", params={"name": "From a query"}, headers=editor.basic)
    assert query.status_code == 201
    assert query.json()["name"] == "From a query"
    # JSON wins over the query string.
    both = await client.post(
        f"{API}/tags", params={"name": "query"}, json={"name": "json"}, headers=editor.basic
    )
    assert both.json()["name"] == "json"


async def test_translations_fall_back_to_the_default_language(
    client: AsyncClient, editor: AuthFor
) -> None:
    created = await client.post(
        f"{API}/categories",
        json={"name": "Konzert", "description": "Live-Musik", "i18n_language": "de"},
        headers=editor.basic,
    )
    assert created.status_code == 201
    assert created.headers["Content-Language"] == "de"
    term_id = created.json()["id"]
    # Created in German: the text is the default-language text too, so nothing is empty.
    english = (await client.get(f"{API}/categories/{term_id}")).json()
    assert english["name"] == "Konzert"
    updated = await client.put(
        f"{API}/categories/{term_id}", json={"name": "Concert"}, headers=editor.basic
    )
    assert updated.json()["name"] == "Concert"
    german = await client.get(f"/de{API}/categories/{term_id}")
    assert german.json()["name"] == "Konzert"
    assert german.json()["description"] == "Live-Musik"
    assert german.json()["urls"]["self"] == f"http://testserver/de{API}/categories/{term_id}"
    slovak = await client.get(f"{API}/categories/{term_id}", params={"i18n_language": "sk"})
    assert slovak.headers["Content-Language"] == "sk"
    assert slovak.json()["name"] == "Concert"  # no Slovak text: the default language shows
    await client.patch(
        f"/sk{API}/categories/{term_id}", json={"description": "Živá hudba"}, headers=editor.basic
    )
    slovak_again = (await client.get(f"/sk{API}/categories/{term_id}")).json()
    assert slovak_again["name"] == "Concert"
    assert slovak_again["description"] == "Živá hudba"
    searched = await client.get(
        f"/de{API}/categories", params={"search": "konz", "hide_empty": "0"}
    )
    assert [t["id"] for t in searched.json()["categories"]] == [term_id]
    english = await client.get(f"{API}/categories", params={"search": "conc", "hide_empty": "0"})
    assert english.json()["total"] == 1
    # Search reads the request language: the German name and the shared slug say "Konzert".
    german_miss = await client.get(
        f"/de{API}/categories", params={"search": "conc", "hide_empty": "0"}
    )
    assert german_miss.json()["total"] == 0
