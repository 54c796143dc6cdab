"""Event cost through the API as the reference shows it: amounts written without a symbol get
the site's currency (CURRENCY_SYMBOL, CURRENCY_POSITION) in the display only; the details
keep what was written; `currency_code` is never inferred from a symbol."""

import importlib.util
from typing import Any

import pytest
from alembic.migration import MigrationContext
from alembic.operations import Operations
from fastapi import FastAPI
from httpx import AsyncClient
from pydantic import ValidationError
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.core.database.migrate import PROJECT_ROOT
from app.core.settings import Settings
from tests.factories import API, AuthFor

DASH = "–"  # en dash


def details(values: list[str], symbol: str = "", position: str = "") -> dict[str, Any]:
    return {
        "currency_symbol": symbol,
        "currency_code": "",
        "currency_position": position,
        "values": values,
    }


async def create(client: AsyncClient, who: AuthFor, cost: Any) -> dict[str, Any]:
    payload = {
        "title": "Priced",
        "start_date": "2031-03-01 18:00:00",
        "end_date": "2031-03-01 20:00:00",
        "cost": cost,
    }
    response = await client.post(f"{API}/events", json=payload, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize(
    ("cost", "display", "expected"),
    [
        # The reference's own capture (event-post-created.json): `15` shows as `$15`, and the
        # details record no symbol, no position, no code.
        pytest.param("15", "$15", details(["15"]), id="reference-sample"),
        pytest.param(15, "$15", details(["15"]), id="number"),
        pytest.param("5 - 20", f"$5 {DASH} $20", details(["5", "20"]), id="range"),
        pytest.param(
            ["Free", "20", "30"],
            f"Free {DASH} $30",
            details(["free", "20", "30"]),
            id="free-and-amounts",
        ),
        pytest.param("12.50", "$12.50", details(["12.50"]), id="written-decimals"),
        # The word free in lower case, however written, as the reference records it.
        pytest.param("free", "Free", details(["free"]), id="free"),
        pytest.param("FREE", "Free", details(["free"]), id="free-upper-case"),
        # A written symbol is recorded, with its side, and shown; no code from it.
        pytest.param("20$", "20$", details(["20"], "$", "postfix"), id="reference-postfix"),
        pytest.param("$15", "$15", details(["15"], "$", "prefix"), id="dollar"),
        pytest.param("€12,50", "€12.50", details(["12.50"], "€", "prefix"), id="euro"),
        pytest.param("EUR 10", "EUR10", details(["10"], "EUR", "prefix"), id="code-is-a-symbol"),
        pytest.param(
            ["0$", "20$", "30$"],
            f"Free {DASH} 30$",
            details(["0", "20", "30"], "$", "postfix"),
            id="reference-list",
        ),
        pytest.param("Donation", "Donation", details(["Donation"]), id="word"),
        pytest.param("", "", details([]), id="none"),
    ],
)
async def test_cost_with_the_default_currency(
    client: AsyncClient, editor: AuthFor, cost: Any, display: str, expected: dict[str, Any]
) -> None:
    event = await create(client, editor, cost)
    assert (event["cost"], event["cost_details"]) == (display, expected)
    read = (await client.get(f"{API}/events/{event['id']}")).json()
    assert (read["cost"], read["cost_details"]) == (display, expected)


async def test_the_site_currency_is_shown_where_none_is_written(
    app: FastAPI, client: AsyncClient, editor: AuthFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_services(app).settings, "currency_symbol", "€")
    monkeypatch.setattr(app_services(app).settings, "currency_position", "suffix")
    plain = await create(client, editor, "5 - 20")
    assert plain["cost"] == f"5€ {DASH} 20€"
    assert plain["cost_details"] == details(["5", "20"])  # the default is not recorded
    written = await create(client, editor, "$5")
    assert written["cost"] == "$5"  # a written symbol wins
    assert written["cost_details"] == details(["5"], "$", "prefix")
    monkeypatch.setattr(app_services(app).settings, "currency_symbol", "CHF ")
    monkeypatch.setattr(app_services(app).settings, "currency_position", "prefix")
    updated = await client.patch(
        f"{API}/events/{plain['id']}", json={"cost": ["0", "12.5"]}, headers=editor.basic
    )
    assert updated.status_code == 200, updated.text
    assert updated.json()["cost"] == f"Free {DASH} CHF 12.50"
    assert updated.json()["cost_details"] == details(["0", "12.5"])
    window = {"start_date": "2031-03-01", "end_date": "2031-03-01"}
    listed = (await client.get(f"{API}/events", params=window)).json()
    shown = {event["id"]: event["cost"] for event in listed["events"]}
    assert shown == {plain["id"]: f"Free {DASH} CHF 12.50", written["id"]: "$5"}


async def test_stored_details_get_free_in_lower_case(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    """Rows written before the lower-case word keep `Free` until the migration rewrites them
    (and it leaves every other value, and other rows, as they are)."""
    old = await create(client, editor, ["Free", "20"])
    other = await create(client, editor, "Donation")
    await db.execute(
        text(
            "UPDATE events SET cost_details = jsonb_set(cost_details, '{values}', :values) WHERE id = :id"
        ),
        {"values": '["Free", "20"]', "id": old["id"]},
    )
    await db.commit()
    migration = _migration("2026-11-24-2000_free_in_lower_case.py")
    connection = await db.connection()
    await connection.run_sync(lambda sync: _run(sync, migration.upgrade))
    await db.commit()
    read = (await client.get(f"{API}/events/{old['id']}")).json()
    assert read["cost_details"]["values"] == ["free", "20"]
    unchanged = (await client.get(f"{API}/events/{other['id']}")).json()
    assert unchanged["cost_details"] == other["cost_details"]


def _migration(name: str) -> Any:
    path = PROJECT_ROOT / "migrations" / "versions" / name
    spec = importlib.util.spec_from_file_location("migration_under_test", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(connection: Any, step: Any) -> None:
    """One migration step on this connection (Alembic's `op` bound to it)."""
    with Operations.context(MigrationContext.configure(connection)):
        step()


async def test_json_ld_offer_has_no_guessed_currency(client: AsyncClient, editor: AuthFor) -> None:
    event = await create(client, editor, "$15")
    offer = (await client.get(f"{API}/events/{event['id']}")).json()["json_ld"]["offers"]
    assert offer["price"] == "15"
    assert offer["priceCurrency"] == ""
    free = await create(client, editor, ["Free", "20"])
    offer = (await client.get(f"{API}/events/{free['id']}")).json()["json_ld"]["offers"]
    assert offer["price"] == "0"  # a number, as schema.org wants, not the word
    words = await create(client, editor, "donation")
    assert "offers" not in (await client.get(f"{API}/events/{words['id']}")).json()["json_ld"]


@pytest.mark.parametrize(
    ("value", "stored"), [("prefix", "prefix"), ("suffix", "suffix"), (" SUFFIX ", "suffix")]
)
def test_currency_position_setting(value: str, stored: str) -> None:
    assert Settings(currency_position=value).currency_position == stored


@pytest.mark.parametrize("value", ["postfix", "before", ""])
def test_currency_position_setting_rejects_other_values(value: str) -> None:
    with pytest.raises(ValidationError, match="currency_position"):
        Settings(currency_position=value)


def test_currency_defaults() -> None:
    fields = Settings.model_fields
    assert (fields["currency_symbol"].default, fields["currency_position"].default) == (
        "$",
        "prefix",
    )
