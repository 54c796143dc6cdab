"""Every text of the desk has its German and Slovak translation: the texts of the templates
(`_()`, `ngettext`) and the ones the code marks (`N_()`, `gettext(language, ...)`,
`DeskRefused(status, ...)`), found as Babel's extractors find them, against the merged
catalogs of every area (app/desk/locale/<lang>/LC_MESSAGES/*.po)."""

from pathlib import Path

import pytest
from babel.messages.extract import extract
from jinja2.ext import babel_extract

from app.desk.i18n import HERE, TEMPLATES, catalog_files, merged, translations

PYTHON_KEYWORDS = {"N_": None, "gettext": (2,), "DeskRefused": (2,), "_": None}
TEMPLATE_OPTIONS = {"extensions": "jinja2.ext.i18n", "trim_blocks": "1", "lstrip_blocks": "1"}


def _ids(message: str | tuple[str, ...]) -> list[str]:
    return list(message) if isinstance(message, tuple) else [message]


def desk_texts() -> dict[str, str]:
    """Every marked text of the desk: text -> where it is."""
    found: dict[str, str] = {}
    for path in sorted(TEMPLATES.rglob("*.html")):
        with path.open("rb") as source:
            for line, _, message, _ in babel_extract(
                source, ("_", "gettext", "ngettext"), [], TEMPLATE_OPTIONS
            ):
                for text in _ids(message):
                    if isinstance(text, str):
                        found.setdefault(text, f"{path.relative_to(HERE)}:{line}")
    for path in sorted(HERE.rglob("*.py")):
        with path.open("rb") as source:
            for line, message, _, _ in extract("python", source, PYTHON_KEYWORDS):
                for text in _ids(message):
                    if text:
                        found.setdefault(text, f"{path.relative_to(HERE)}:{line}")
    return found


def test_the_texts_are_found() -> None:
    texts = desk_texts()
    assert "Sign in to the desk" in texts  # a template's
    assert "My sessions" in texts  # the nav's, marked in the code
    assert "This form was sent from another site." in texts  # a refusal's


@pytest.mark.parametrize("language", ["de", "sk"])
def test_every_text_is_translated(language: str) -> None:
    catalog = translations(language)
    missing = {
        text: where
        for text, where in desk_texts().items()
        if catalog.gettext(text) == text and text not in UNCHANGED.get(language, ())
    }
    assert missing == {}


# Texts whose translation is the same word.
UNCHANGED = {"de": {"Administrator", "Browser"}, "sk": {"Editor"}}


def _po(path: Path, text: str, translation: str) -> Path:
    path.write_text(
        f'msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "{text}"\nmsgstr "{translation}"\n',
        encoding="utf-8",
    )
    return path


def test_the_catalogs_of_every_area_are_merged(tmp_path: Path) -> None:
    """Each area keeps its own file (base.po, editor.po, ...): all of them count."""
    files = [
        _po(tmp_path / "base.po", "Sign out", "Abmelden"),
        _po(tmp_path / "editor.po", "Save", "Speichern"),
    ]
    catalog = merged(files, "de")
    assert (catalog.gettext("Sign out"), catalog.gettext("Save")) == ("Abmelden", "Speichern")
    assert [path.name for path in catalog_files("de")][0] == "base.po"
