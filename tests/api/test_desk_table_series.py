"""The desk's Events table expands a series into its dates (paged, each date linking to its
own editor), and the home page's counts count what the table lists (a series once)."""

import re

from httpx import AsyncClient

from tests.api.test_desk_events import add_event, titles
from tests.desk_support import DeskUserFactory, desk_login

DESK = "/desk/events/"
EDIT_LINK = re.compile(r'<th scope="row"><a href="/desk/events/(\d+)/edit">')


async def test_a_series_row_expands_into_its_dates_each_to_its_editor(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    series = await add_event(
        client, editor, "Weekly class", start="2027-03-01 18:00:00",
        recurrence=["RRULE:FREQ=WEEKLY;COUNT=25"],
    )  # fmt: skip
    await add_event(client, editor, "Single talk")
    await desk_login(client, editor)
    table = await client.get(DESK)
    assert titles(table.text).count("Weekly class") == 1
    link = re.search(
        r'<a href="(/desk/events/\?[^"]*post_parent=(\d+)[^"]*)">All dates', table.text
    )
    assert link is not None, table.text
    assert int(link.group(2)) == series
    expanded = await client.get(link.group(1).replace("&amp;", "&"))
    assert expanded.status_code == 200
    assert titles(expanded.text) == ["Weekly class"] * 20  # a page of the table
    assert "25 dates of a series, page 1 of 2" in expanded.text
    ids = [int(found) for found in EDIT_LINK.findall(expanded.text)]
    assert len(set(ids)) == 20
    assert ids[0] == series  # the first date first
    second = await client.get(link.group(1).replace("&amp;", "&") + "&page=2")
    later = [int(found) for found in EDIT_LINK.findall(second.text)]
    assert len(later) == 5
    assert not set(later) & set(ids)
    one_date = await client.get(f"/desk/events/{later[-1]}/edit")
    assert one_date.status_code == 200  # each date's own editor
    assert "Single talk" not in expanded.text
    assert "Back to one row per series" in expanded.text


async def test_the_home_counts_what_the_table_lists(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    await add_event(client, editor, "Weekly class", recurrence=["RRULE:FREQ=WEEKLY;COUNT=10"])
    await add_event(client, editor, "Single talk")
    await add_event(client, editor, "Old fair", start="2001-05-01 10:00:00")
    await desk_login(client, editor)
    home = await client.get("/desk/")
    published = re.search(r'status=publish"><span class="number">(\d+)</span>', home.text)
    assert published is not None
    table = await client.get(DESK, params={"status": "publish"})
    caption = re.search(r'<caption id="events-caption">(\d+) events', table.text)
    assert caption is not None
    assert int(published.group(1)) == int(caption.group(1)) == 3
    assert "A series counts once" in home.text


async def test_a_bad_series_id_is_said(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    await desk_login(client, await desk_user("editor"))
    page = await client.get(DESK, params={"post_parent": "abc"})
    assert page.status_code == 400
    assert re.search(r'<p class="problem" role="alert">[^<]*post_parent', page.text)
