"""Event cost: the display string and `cost_details` the reference derives (§9.5)."""

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from app.core.errors import invalid

# A number with an optional decimal part; `1,000` (three digits) is a thousands group.
_NUMBER = re.compile(r"\d[\d,.]*")
_CURRENCY_CODES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "kč": "CZK", "chf": "CHF"}
EN_DASH = "–"


@dataclass(frozen=True, slots=True)
class Cost:
    display: str = ""
    currency_symbol: str = ""
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


def _number(token: str) -> Decimal | None:
    token = token.rstrip(".,")
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", token):
        token = token.replace(",", "")  # thousands separators
    elif token.count(",") == 1 and "." not in token:
        token = token.replace(",", ".")  # decimal comma
    try:
        return Decimal(token)
    except InvalidOperation:
        return None


def _text(number: Decimal) -> str:
    normalised = number.normalize()
    return f"{normalised:f}" if normalised == normalised.to_integral() else str(normalised)


def parse_cost(raw: Any) -> Cost:
    """`"20$"`, `"$5 - $10"`, `["0$", "20$", "30$"]`, `"Free"`... into display and details."""
    items = raw if isinstance(raw, list) else [raw]
    texts = [str(item).strip() for item in items if item is not None and str(item).strip()]
    if not texts:
        return Cost()
    numbers: list[Decimal] = []
    others: list[str] = []
    symbol, position = "", ""
    for text in texts:
        found = [n for n in (_number(t) for t in _NUMBER.findall(text)) if n is not None]
        if text.lower() == "free":
            found = [Decimal(0)]
        if not found:
            others.append(text)
            continue
        numbers.extend(found)
        leftover = _NUMBER.sub(" ", text).replace("-", " ").replace(EN_DASH, " ").strip()
        candidate = leftover.split()[0] if leftover.split() else ""
        if candidate and candidate.lower() != "free" and not symbol:
            symbol = candidate
            position = "postfix" if text[0].isdigit() else "prefix"
    numbers.sort()
    values = [_text(n) for n in numbers] + others

    def shown(number: Decimal) -> str:
        if number == 0:
            return "Free"
        amount = _text(number) if number == number.to_integral() else f"{number:.2f}"
        return f"{symbol}{amount}" if position == "prefix" else f"{amount}{symbol}"

    if not numbers:
        display = ", ".join(others)
    elif numbers[0] == numbers[-1]:
        display = shown(numbers[0])
    else:
        display = f"{shown(numbers[0])} {EN_DASH} {shown(numbers[-1])}"
    return Cost(
        display=display,
        currency_symbol=symbol,
        currency_code=_CURRENCY_CODES.get(symbol.lower(), ""),
        currency_position=position,
        values=values,
    )


def cost_columns(raw: Any) -> dict[str, Any]:
    """The event columns for a write's `cost`: a string, a number or a list of those."""
    if raw is not None and not isinstance(raw, str | int | float | list):
        raise invalid("cost")
    if isinstance(raw, list) and not all(isinstance(v, str | int | float) for v in raw):
        raise invalid("cost")
    cost = parse_cost(raw)
    return {"cost": cost.display, "cost_details": cost.details()}
