"""The event list's `search` through its index: word prefixes, languages, markup, writes."""

from datetime import date, datetime, time, timedelta
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.events.repository import list_query
from tests.factories import API, AuthFor

DAY = date.today() + timedelta(days=3)


async def add(client: AsyncClient, editor: AuthFor, hour: int, **fields: Any) -> int:
    start = datetime.combine(DAY, time(hour))
    payload = {
        "start_date": f"{start:%Y-%m-%d %H:%M:%S}",
        "end_date": f"{start + timedelta(hours=1):%Y-%m-%d %H:%M:%S}",
        **fields,
    }
    response = await client.post(f"{API}/events", json=payload, headers=editor.basic)
    assert response.status_code == 201, response.text
    event_id: int = response.json()["id"]
    return event_id


async def found(client: AsyncClient, search: str, prefix: str = "") -> list[int]:
    response = await client.get(f"{prefix}{API}/events", params={"search": search})
    assert response.status_code == 200, response.text
    return [event["id"] for event in response.json()["events"]]


async def translate(client: AsyncClient, editor: AuthFor, event_id: int, **texts: str) -> None:
    response = await client.post(f"/de{API}/events/{event_id}", json=texts, headers=editor.basic)
    assert response.status_code == 200, response.text


async def test_words_match_at_their_start(client: AsyncClient, editor: AuthFor) -> None:
    nightlife = await add(client, editor, 9, title="Nightlife tour")
    midnight = await add(client, editor, 10, title="Midnight run")
    assert await found(client, "night") == [nightlife]
    assert await found(client, "NIGHTLIFE") == [nightlife]
    assert await found(client, "midnight") == [midnight]
    assert await found(client, "ight") == []


async def test_every_word_in_any_text(client: AsyncClient, editor: AuthFor) -> None:
    both = await add(client, editor, 9, title="Jazz", excerpt="<p>in the park</p>")
    await add(client, editor, 10, title="Jazz", description="<p>in the hall</p>")
    assert await found(client, "jazz park") == [both]
    assert await found(client, "park jazz") == [both]
    assert await found(client, "jazz opera") == []


async def test_markup_is_not_text(client: AsyncClient, editor: AuthFor) -> None:
    marked = await add(client, editor, 9, title="Plain", description="<strong>Loud</strong>")
    assert await found(client, "loud") == [marked]
    assert await found(client, "strong") == []


async def test_punctuation_and_letters_beyond_ascii(client: AsyncClient, editor: AuthFor) -> None:
    rock = await add(client, editor, 9, title="Rock'n'Roll & Blues")
    cierny = await add(client, editor, 10, title="Čierny Peter in Köln")
    assert await found(client, "rock & roll") == [rock]
    assert await found(client, "rock'n'roll") == [rock]
    assert await found(client, "ČIERNY köln") == [cierny]
    # A search with no letter or digit matches nothing.
    assert await found(client, "& %") == []


async def test_each_language_searches_what_it_shows(client: AsyncClient, editor: AuthFor) -> None:
    translated = await add(client, editor, 9, title="Summer concert", description="Brass band")
    untranslated = await add(client, editor, 10, title="Summer market")
    await translate(client, editor, translated, title="Sommerkonzert")
    # German shows the German title, and the English description where it has none.
    assert await found(client, "sommerkonzert", "/de") == [translated]
    assert await found(client, "brass", "/de") == [translated]
    assert await found(client, "concert", "/de") == []
    assert await found(client, "summer", "/de") == [untranslated]
    # English shows the stored texts.
    assert await found(client, "summer") == [translated, untranslated]
    assert await found(client, "sommerkonzert") == []
    assert await found(client, "sommerkonzert", "/sk") == []


async def test_writes_are_searchable_at_once(client: AsyncClient, editor: AuthFor) -> None:
    event = await add(client, editor, 9, title="Quartet")
    assert await found(client, "quartet") == [event]
    renamed = await client.post(
        f"{API}/events/{event}", json={"title": "Quintet"}, headers=editor.basic
    )
    assert renamed.status_code == 200, renamed.text
    assert await found(client, "quartet") == []
    assert await found(client, "quintet") == [event]
    await translate(client, editor, event, title="Quintett", description="Fünf")
    assert await found(client, "fünf", "/de") == [event]
    await translate(client, editor, event, description="Streicher")
    assert await found(client, "fünf", "/de") == []
    assert await found(client, "streicher", "/de") == [event]


async def test_the_index_serves_the_search(client: AsyncClient, db: AsyncSession) -> None:
    # Whatever the planner prefers at this size, the index can answer the condition.
    await db.execute(text("SET LOCAL enable_seqscan = off"))
    plan = await db.execute(
        text("EXPLAIN SELECT id FROM events WHERE search_words @@ CAST(:q AS tsquery)"),
        {"q": "'*:night':*"},
    )
    assert "events_search_idx" in "\n".join(row[0] for row in plan)


async def test_both_plans_give_the_same_pages(
    client: AsyncClient, editor: AuthFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Few matches are read through the index and sorted; many by walking the list order.
    matching = [await add(client, editor, 8 + index, title=f"Choir {index}") for index in range(5)]
    await add(client, editor, 9, title="Organ")
    pages: dict[int, list[list[int]]] = {}
    for threshold in (2000, 0):
        monkeypatch.setattr(list_query, "SPARSE_MATCHES", threshold)
        pages[threshold] = []
        for page in (1, 2, 3):
            response = await client.get(
                f"{API}/events",
                params={"search": "choir", "per_page": 2, "page": page, "_": threshold},
            )
            assert response.status_code == 200, response.text
            assert response.json()["total"] == 5
            pages[threshold].append([event["id"] for event in response.json()["events"]])
    assert pages[2000] == pages[0] == [matching[0:2], matching[2:4], matching[4:]]
