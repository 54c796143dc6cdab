"""Cost rules (`app.events.cost`): the display string and `cost_details`, table-driven.

Pure functions only: no database, no HTTP client.
"""

from typing import Any

import pytest

from app.events.cost import EN_DASH, Cost, Currency, parse_cost

EMPTY = Cost(display="", currency_symbol="", currency_code="", currency_position="", values=[])


def cost(
    display: str,
    values: list[str],
    symbol: str = "",
    code: str = "",
    position: str = "",
) -> Cost:
    return Cost(
        display=display,
        currency_symbol=symbol,
        currency_code=code,
        currency_position=position,
        values=values,
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # One amount: the symbol keeps its side of the number.
        pytest.param("20$", cost("20$", ["20"], "$", "", "postfix"), id="postfix-dollar"),
        pytest.param(" 20$ ", cost("20$", ["20"], "$", "", "postfix"), id="trimmed"),
        pytest.param("$ 10", cost("$10", ["10"], "$", "", "prefix"), id="prefix-space-dropped"),
        pytest.param("$5.", cost("$5", ["5"], "$", "", "prefix"), id="trailing-dot-ignored"),
        pytest.param("£5", cost("£5", ["5"], "£", "", "prefix"), id="pound"),
        pytest.param("¥100", cost("¥100", ["100"], "¥", "", "prefix"), id="yen"),
        pytest.param("CHF 20", cost("CHF20", ["20"], "CHF", "", "prefix"), id="chf-word"),
        pytest.param("20 Kč", cost("20Kč", ["20"], "Kč", "", "postfix"), id="koruna"),
        # Decimals: shown with two places; values as written, with a decimal point.
        pytest.param("€12.5", cost("€12.50", ["12.5"], "€", "", "prefix"), id="two-places"),
        pytest.param("12,50 €", cost("12.50€", ["12.50"], "€", "", "postfix"), id="decimal-comma"),
        pytest.param(
            "€12,5", cost("€12.50", ["12.5"], "€", "", "prefix"), id="decimal-comma-one-digit"
        ),
        pytest.param("1,000 €", cost("1000€", ["1000"], "€", "", "postfix"), id="thousands-comma"),
        pytest.param(
            "$1,234.56",
            cost("$1234.56", ["1234.56"], "$", "", "prefix"),
            id="thousands-and-decimals",
        ),
        # No symbol: shown with the default currency ($ before the amount), not recorded.
        pytest.param("10", cost("$10", ["10"]), id="bare-number"),
        pytest.param(10, cost("$10", ["10"]), id="int"),
        pytest.param(12.5, cost("$12.50", ["12.5"]), id="float"),
        pytest.param("12.50", cost("$12.50", ["12.50"]), id="written-decimals-kept"),
        # Zero is Free, whatever its spelling; values keep the spelling.
        pytest.param("Free", cost("Free", ["free"]), id="free"),
        pytest.param("free", cost("Free", ["free"]), id="free-lower"),
        pytest.param("FREE", cost("Free", ["free"]), id="free-upper"),
        pytest.param("0", cost("Free", ["0"]), id="zero-string"),
        pytest.param("0.00", cost("Free", ["0.00"]), id="zero-decimals"),
        pytest.param(0, cost("Free", ["0"]), id="zero-int"),
        # Ranges: min – max with an en dash, values sorted.
        pytest.param(
            "$5 - $10",
            cost(f"$5 {EN_DASH} $10", ["5", "10"], "$", "", "prefix"),
            id="range-hyphen",
        ),
        pytest.param(
            f"$10{EN_DASH}$20",
            cost(f"$10 {EN_DASH} $20", ["10", "20"], "$", "", "prefix"),
            id="range-en-dash",
        ),
        pytest.param(
            "$10 - $5",
            cost(f"$5 {EN_DASH} $10", ["5", "10"], "$", "", "prefix"),
            id="range-reversed-is-sorted",
        ),
        pytest.param(
            "1,5 - 2,5 €",
            cost(f"1.50€ {EN_DASH} 2.50€", ["1.5", "2.5"], "€", "", "postfix"),
            id="range-decimal-commas",
        ),
        pytest.param("$5 - $5", cost("$5", ["5", "5"], "$", "", "prefix"), id="range-of-one-value"),
        pytest.param(
            "€0 - €10",
            cost(f"Free {EN_DASH} €10", ["0", "10"], "€", "", "prefix"),
            id="range-from-zero",
        ),
        # Without a symbol, amounts are shown with the default currency ($, prefix) that the
        # details do not record.
        pytest.param("5 - 20", cost(f"$5 {EN_DASH} $20", ["5", "20"]), id="range-no-symbol"),
        pytest.param(
            ["Free", "20", "30"],
            cost(f"Free {EN_DASH} $30", ["free", "20", "30"]),
            id="free-and-amounts-no-symbol",
        ),
        pytest.param(
            ["30", "free", "20"],
            cost(f"Free {EN_DASH} $30", ["free", "20", "30"]),
            id="free-sorted-first",
        ),
        # A currency code is a written symbol like any other; the code is never inferred.
        pytest.param("EUR 10", cost("EUR10", ["10"], "EUR", "", "prefix"), id="code-as-prefix"),
        pytest.param("10 USD", cost("10USD", ["10"], "USD", "", "postfix"), id="code-as-postfix"),
        # Lists: every item counts; the first symbol found is the one shown.
        pytest.param(
            ["0$", "20$", "30$"],
            cost(f"Free {EN_DASH} 30$", ["0", "20", "30"], "$", "", "postfix"),
            id="list-reference-example",
        ),
        pytest.param(
            ["Free", "$10"],
            cost(f"Free {EN_DASH} $10", ["free", "10"], "$", "", "prefix"),
            id="list-free-and-amount",
        ),
        pytest.param(
            ["$10", "0"],
            cost(f"Free {EN_DASH} $10", ["0", "10"], "$", "", "prefix"),
            id="list-unsorted",
        ),
        pytest.param(
            ["20$", "$30"],
            cost(f"20$ {EN_DASH} 30$", ["20", "30"], "$", "", "postfix"),
            id="list-first-position-wins",
        ),
        pytest.param([5, 10], cost(f"$5 {EN_DASH} $10", ["5", "10"]), id="list-of-ints"),
        pytest.param(["  ", "20$"], cost("20$", ["20"], "$", "", "postfix"), id="list-blanks"),
        # Words: kept in values after the numbers; shown only when there is no number.
        pytest.param("donation", cost("donation", ["donation"]), id="word-only"),
        pytest.param("Free entry", cost("Free entry", ["Free entry"]), id="free-in-a-phrase"),
        pytest.param(
            ["$5", "donation"],
            cost("$5", ["5", "donation"], "$", "", "prefix"),
            id="amount-and-word",
        ),
        pytest.param(["Free", "donation"], cost("Free", ["free", "donation"]), id="free-and-word"),
        pytest.param(
            ["1", "donation", "2"],
            cost(f"$1 {EN_DASH} $2", ["1", "2", "donation"]),
            id="words-after-numbers",
        ),
        # Nothing.
        pytest.param("", EMPTY, id="empty-string"),
        pytest.param("   ", EMPTY, id="blank-string"),
        pytest.param(None, EMPTY, id="none"),
        pytest.param([], EMPTY, id="empty-list"),
        pytest.param(["", None], EMPTY, id="list-of-nothing"),
    ],
)
def test_parse_cost(raw: Any, expected: Cost) -> None:
    assert parse_cost(raw) == expected


def test_no_cost_is_the_default_cost() -> None:
    assert parse_cost(None) == Cost()


@pytest.mark.parametrize(
    ("raw", "details"),
    [
        pytest.param(
            "$5 - $10",
            {
                "currency_symbol": "$",
                "currency_code": "",
                "currency_position": "prefix",
                "values": ["5", "10"],
            },
            id="range",
        ),
        pytest.param(
            "12,50 €",
            {
                "currency_symbol": "€",
                "currency_code": "",
                "currency_position": "postfix",
                "values": ["12.50"],
            },
            id="postfix",
        ),
        pytest.param(
            None,
            {"currency_symbol": "", "currency_code": "", "currency_position": "", "values": []},
            id="none",
        ),
    ],
)
def test_cost_details(raw: Any, details: dict[str, Any]) -> None:
    assert parse_cost(raw).details() == details


def test_details_values_are_a_copy() -> None:
    parsed = parse_cost("$5 - $10")
    details = parsed.details()
    details["values"].append("99")
    assert parsed.values == ["5", "10"]


@pytest.mark.parametrize(
    ("raw", "currency", "display"),
    [
        pytest.param("10", Currency("€", "suffix"), "10€", id="suffix"),
        pytest.param("10", Currency("CHF ", "prefix"), "CHF 10", id="symbol-as-configured"),
        pytest.param("5 - 20", Currency("€", "suffix"), f"5€ {EN_DASH} 20€", id="range-suffix"),
        pytest.param(["0", "12.5"], Currency("€", "suffix"), f"Free {EN_DASH} 12.50€", id="free"),
        pytest.param("£5", Currency("€", "suffix"), "£5", id="written-symbol-wins"),
        pytest.param("20$", Currency("€", "prefix"), "20$", id="written-position-wins"),
        pytest.param("donation", Currency("€", "suffix"), "donation", id="words-have-none"),
    ],
)
def test_default_currency(raw: Any, currency: Currency, display: str) -> None:
    parsed = parse_cost(raw, currency)
    assert parsed.display == display
    # The default is shown, not recorded: the details keep what was written.
    assert parsed.details() == parse_cost(raw).details()
