"""Event cost: the display string and `cost_details` the reference derives (docs/design.md#cost)."""

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from app.core.settings import Settings
from app.events.commands import CostValue

# A number with an optional decimal part; `1,000` (three digits) is a thousands group.
_NUMBER = re.compile(r"\d[\d,.]*")
EN_DASH = "–"
FREE = "free"


@dataclass(frozen=True, slots=True)
class Currency:
    """The site's default currency: shown with amounts written without a symbol."""

    symbol: str = "$"
    position: str = "prefix"  # or "suffix"

    @classmethod
    def of(cls, settings: Settings) -> "Currency":
        return cls(settings.currency_symbol, settings.currency_position)

    def show(self, amount: str) -> str:
        return f"{amount}{self.symbol}" if self.position == "suffix" else f"{self.symbol}{amount}"


DEFAULT_CURRENCY = Currency()


@dataclass(frozen=True, slots=True)
class Cost:
    display: str = ""
    currency_symbol: str = ""
    # Never inferred from a symbol (`$` is not only USD): the reference takes it from a
    # field of its editor that its REST API does not write, so it stays empty here.
    currency_code: str = ""
    currency_position: str = ""
    values: list[str] = field(default_factory=list)

    def details(self) -> dict[str, Any]:
        return {
            "currency_symbol": self.currency_symbol,
            "currency_code": self.currency_code,
            "currency_position": self.currency_position,
            "values": list(self.values),
        }


@dataclass(frozen=True, slots=True)
class _Component:
    written: str  # as written, separators normalised for numbers
    amount: Decimal | None  # None: a word


def _number(token: str) -> _Component | None:
    token = token.rstrip(".,")
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", token):
        token = token.replace(",", "")  # thousands separators
    elif token.count(",") == 1 and "." not in token:
        token = token.replace(",", ".")  # decimal comma
    try:
        return _Component(token, Decimal(token))
    except InvalidOperation:
        return None


def _text(number: Decimal) -> str:
    normalised = number.normalize()
    return f"{normalised:f}" if normalised == normalised.to_integral() else str(normalised)


def parse_cost(raw: Any, currency: Currency = DEFAULT_CURRENCY) -> Cost:
    """`"20$"`, `"$5 - $10"`, `["0$", "20$", "30$"]`, `"Free"`, `"10"`... into display and
    details. A symbol written in the text is recorded with its side (`prefix`/`postfix`) and
    shown; amounts written without one are shown with the site's default `currency`, which
    the details do not record. `values` keep the components as written (a decimal comma
    becomes a point, thousands separators go), other words included, and the word `free` in
    lower case (as the reference writes it)."""
    items = raw if isinstance(raw, list) else [raw]
    texts = [str(item).strip() for item in items if item is not None and str(item).strip()]
    if not texts:
        return Cost()
    components: list[_Component] = []
    symbol, position = "", ""
    for text in texts:
        if text.lower() == FREE:
            # In lower case whatever the writing, as the reference records it: clients
            # compare these values.
            components.append(_Component(FREE, Decimal(0)))
            continue
        found = [c for c in (_number(t) for t in _NUMBER.findall(text)) if c is not None]
        if not found:
            components.append(_Component(text, None))
            continue
        components.extend(found)
        leftover = _NUMBER.sub(" ", text).replace("-", " ").replace(EN_DASH, " ").strip()
        candidate = leftover.split()[0] if leftover.split() else ""
        if candidate and candidate.lower() != FREE and not symbol:
            symbol = candidate
            position = "postfix" if text[0].isdigit() else "prefix"
    # Sorted numerically (`free` is 0), words after the amounts; ties keep their order.
    components.sort(key=lambda c: (c.amount is None, c.amount or 0))
    amounts = [c.amount for c in components if c.amount is not None]

    def shown(number: Decimal) -> str:
        if number == 0:
            return "Free"
        amount = _text(number) if number == number.to_integral() else f"{number:.2f}"
        if not symbol:
            return currency.show(amount)
        return f"{symbol}{amount}" if position == "prefix" else f"{amount}{symbol}"

    if not amounts:
        display = ", ".join(c.written for c in components)
    elif amounts[0] == amounts[-1]:
        display = shown(amounts[0])
    else:
        display = f"{shown(amounts[0])} {EN_DASH} {shown(amounts[-1])}"
    return Cost(
        display=display,
        currency_symbol=symbol,
        currency_position=position,
        values=[c.written for c in components],
    )


def cost_columns(cost: CostValue | None, currency: Currency) -> dict[str, Any]:
    """The event columns for a write's cost (a text, a number or a list of them, as the
    door read it: app/events/door.py); amounts without a symbol are shown with the site's
    `currency`."""
    parsed = parse_cost(cost, currency)
    return {"cost": parsed.display, "cost_details": parsed.details()}
