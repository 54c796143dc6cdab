"""What `almanac import` trusts of its source (app/importer/guard.py): the credentials go to
the origin the operator named and nowhere else, anything else the source names (an API root
in its `Link` header, a redirect, an image) is fetched from public addresses only, and a run
that is no longer signed in stops before --prune can trash what it no longer sees.

The fake source is served over real HTTP on 127.0.0.1 (the origin named, so trusted on
loopback); every other server here is on loopback too, on other ports: what the importer
must refuse."""

import io
from pathlib import Path
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.importer.client import RetryPolicy, SourceClient
from app.importer.guard import NOT_PUBLIC
from app.importer.images import CopyLimits
from app.importer.service import Importer, ImportFailed, ImportOptions
from app.importer.summary import PlainProgress, Summary
from app.media.storage import LocalStorage
from tests.api.test_import import Site, get, mapping
from tests.factories import AuthFor
from tests.live.harness import free_port
from tests.media_files import picture
from tests.tec_source import FakeTEC, served


@pytest.fixture
def site(admin: AuthFor) -> Site:
    return Site()  # owned by the administrator


async def run(
    maker: async_sessionmaker[AsyncSession],
    tec: FakeTEC,
    *,
    signed_in: bool = True,
    **options: Any,
) -> Summary:
    """An import of `tec` over HTTP, from the address it is served at."""
    login, password = ("admin", tec.users["admin"]) if signed_in else (None, None)
    async with SourceClient(
        tec.host, login=login, password=password, retry=RetryPolicy(attempts=1, backoff=0)
    ) as client:
        progress = PlainProgress(io.StringIO())
        return await Importer(maker, client, ImportOptions(**options), progress).run()


async def test_a_link_to_another_port_gets_no_credentials(
    site: Site, maker: async_sessionmaker[AsyncSession]
) -> None:
    """The `Link` header names an API root on another origin: signed in, the run stops there
    and the other server never sees the credentials."""
    elsewhere = FakeTEC()  # a whole site, which would answer the import
    async with served(elsewhere, free_port()) as other, served(site.tec, free_port()) as source:
        site.tec.link = f"{other}/wp-json/"
        with pytest.raises(ImportFailed) as stopped:
            await run(maker, site.tec)
    assert f"{other}/wp-json/ is not on the source's origin, {source}" in str(stopped.value)
    assert "rather than go on anonymously" in str(stopped.value)
    assert [a for a in elsewhere.authorizations if a is not None] == []


async def test_a_link_to_another_loopback_port_is_refused_anonymously(
    site: Site, maker: async_sessionmaker[AsyncSession]
) -> None:
    """Anonymously nothing is at stake but the address: another origin must be public."""
    elsewhere = FakeTEC()
    async with served(elsewhere, free_port()) as other, served(site.tec, free_port()):
        site.tec.link = f"{other}/wp-json/"
        with pytest.raises(ImportFailed, match=NOT_PUBLIC):
            await run(maker, site.tec, signed_in=False)
    assert elsewhere.requests == []  # never connected to


async def test_images_off_the_source_must_be_on_public_addresses(
    site: Site, maker: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    """An image on another loopback port, directly or through a redirect from the source,
    is refused without a connection, with the same reason whether something listens there
    or not (no port scanner); the source's own images come over."""
    tec = site.tec
    png = picture("PNG", (64, 48))
    elsewhere = FakeTEC()
    elsewhere.files["/inside.png"] = elsewhere.files["/moved.png"] = (png, "image/png")
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    options: dict[str, Any] = {
        "copy_images": True,
        "media": LocalStorage(tmp_path),
        "copy_limits": CopyLimits(1_000_000, 4_000_000),
    }
    async with served(elsewhere, free_port()) as other, served(tec, free_port()) as source:
        tec.files["/own.png"] = (png, "image/png")
        tec.redirects["/moved.png"] = other
        images = {
            "Own": f"{source}/own.png",
            "Listening": f"{other}/inside.png",
            "Closed": f"{closed}/inside.png",
            "Redirected": f"{source}/moved.png",
        }
        for name, url in images.items():
            tec.add_organizer(name, image={"url": url, "id": 1, "extension": "png"})
        summary = await run(maker, tec, **options)
    assert summary.images is not None
    assert summary.images.copied == 1  # the source's own
    failed = dict(summary.images.failed)  # with the site's own on tec.test: no address
    refused = {images["Listening"], images["Closed"], images["Redirected"]}
    assert refused <= set(failed)
    assert images["Own"] not in failed
    assert {failed[url] for url in refused} == {NOT_PUBLIC}  # one neutral reason
    assert f"    image not copied: {images['Closed']}: {NOT_PUBLIC}" in summary.lines()
    assert elsewhere.requests == []  # never connected to, not even after the redirect


async def imported_draft(
    site: Site, maker: async_sessionmaker[AsyncSession], client: AsyncClient, admin: AuthFor
) -> int:
    """A first signed-in run imports the draft event: its local ID."""
    await run(maker, site.tec)
    async with maker() as session:
        local = (await mapping(session, "event"))[site.draft]
    assert (await get(client, f"events/{local}", admin))["status"] == "draft"
    return local


async def test_a_redirect_that_drops_the_credentials_stops_the_run(
    site: Site, maker: async_sessionmaker[AsyncSession], client: AsyncClient, admin: AuthFor
) -> None:
    """The source moves its API to another origin (the same site on another port): the
    credentials would not follow, so the run stops, and --prune trashes nothing."""
    tec = site.tec
    async with served(tec, free_port()) as source:
        draft = await imported_draft(site, maker, client, admin)
        async with served(tec, free_port(), second=True) as moved:
            tec.redirects["/wp-json/"] = moved
            with pytest.raises(ImportFailed) as stopped:
                await run(maker, tec, prune=True)
    message = str(stopped.value)
    assert f"(redirected from {source}/wp-json/)" in message
    assert f"is not on the source's origin, {source}" in message
    assert (await get(client, f"events/{draft}", admin))["status"] == "draft"


async def test_a_source_that_does_not_take_the_credentials_stops_the_run(
    site: Site, maker: async_sessionmaker[AsyncSession], client: AsyncClient, admin: AuthFor
) -> None:
    """A proxy in front of the source drops the Authorization header: the source answers as
    to a visitor, and the run stops instead of pruning what visitors cannot see."""
    tec = site.tec
    async with served(tec, free_port()):
        draft = await imported_draft(site, maker, client, admin)
        tec.drop_authorization = True
        with pytest.raises(ImportFailed, match=r"users/me answered 401 \(rest_not_logged_in\)"):
            await run(maker, tec, prune=True)
    assert (await get(client, f"events/{draft}", admin))["status"] == "draft"


async def test_signed_in_without_confirmation_prunes_published_records_only(
    site: Site, maker: async_sessionmaker[AsyncSession], client: AsyncClient, admin: AuthFor
) -> None:
    """A source without WordPress's own API cannot confirm what the account sees: --prune
    treats the run as anonymous, and leaves a draft venue it does not list alone."""
    tec = site.tec
    back_room = tec.add_venue("Back Room", status="draft")
    async with served(tec, free_port()):
        await run(maker, tec)
        async with maker() as session:
            local = (await mapping(session, "venue"))[back_room]
        tec.expose_wp = False
        del tec.venues[back_room]
        summary = await run(maker, tec, prune=True)
    assert (await get(client, f"venues/{local}", admin))["status"] == "draft"
    assert any("did not confirm that this account sees every status" in n for n in summary.notes)
