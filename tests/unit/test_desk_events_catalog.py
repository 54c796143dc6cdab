"""Every text of the Events, Trash and Users screens (their modules and templates) has a
German and a Slovak translation in app/desk/locale/<lang>/LC_MESSAGES/events.po, with the
same placeholders. Pure: Babel's extractors on the files, no app."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

DESK = Path(__file__).resolve().parents[2] / "app" / "desk"
MODULES = [DESK / "screens" / f"{name}.py" for name in ("events", "trash", "users")]
TEMPLATES = sorted(
    path
    for path in (DESK / "templates" / "desk").glob("*.html")
    if path.name.split(".")[0].split("_")[0] in ("events", "trash", "users")
)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def messages() -> set[str | tuple[str, ...]]:
    found: set[str | tuple[str, ...]] = set()
    keywords = {"gettext": (2,), "ngettext": (2, 3)}  # gettext(language, text), app/desk/i18n.py
    for path in MODULES:
        found.update(message for _, message, _, _ in extract_from_file("python", path, keywords))
    options = {"extensions": "jinja2.ext.i18n"}
    template_keywords = {"_": None, "gettext": None, "ngettext": (1, 2)}
    for path in TEMPLATES:
        extracted = extract_from_file(
            "jinja2.ext.babel_extract", path, template_keywords, options=options
        )
        found.update(message for _, message, _, _ in extracted)
    return found


def test_the_screens_have_texts() -> None:
    assert len(TEMPLATES) >= 5
    assert "Waiting for review" in messages()


@pytest.mark.parametrize("language", ["de", "sk"])
def test_every_text_is_translated_with_its_placeholders(language: str) -> None:
    with (DESK / "locale" / language / "LC_MESSAGES" / "events.po").open("rb") as source:
        catalog = read_po(source, locale=language)
    missing, wrong = [], []
    for message in messages():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        forms = () if entry is None else entry.string
        forms = forms if isinstance(forms, tuple) else (forms,)
        if entry is None or not all(forms):
            missing.append(key)
            continue
        wanted = set(PLACEHOLDER.findall(message[-1] if isinstance(message, tuple) else message))
        if any(set(PLACEHOLDER.findall(form)) - wanted - {"num"} for form in forms):
            wrong.append(key)
    assert missing == []
    assert wrong == []
