"""Texts with a number, outside templates (flash messages): the desk's catalogs' plural
forms (app/desk/i18n.py merges every area's catalog)."""

from typing import Any

from app.desk.i18n import translations


def ngettext(language: str, singular: str, plural: str, count: int, **values: Any) -> str:
    """The form of `count` in `language`, with `num` (the count) and `values` filled in."""
    text = translations(language).ngettext(singular, plural, count)
    return text % {"num": count, **values}
