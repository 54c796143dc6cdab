"""Every text of the desk has its German and Slovak translation: the texts of the templates
(`_()`, `ngettext`) and the ones the code marks (`N_()`, `gettext(language, ...)`,
`DeskRefused(status, ...)`), found as Babel's extractors find them, against the merged
catalogs of every area (app/desk/locale/<lang>/LC_MESSAGES/*.po)."""

from pathlib import Path

import pytest
from babel.messages.extract import extract
from babel.support import NullTranslations
from jinja2.ext import babel_extract

from app.desk.i18n import HERE, TEMPLATES, catalog_files, merged, translations

PYTHON_KEYWORDS = {
    "N_": None,
    "gettext": (2,),
    "ngettext": (2, 3),  # app/desk/screens/plurals.py: ngettext(language, one, many, count)
    "DeskRefused": (2,),
    "_": None,
}
TEMPLATE_OPTIONS = {"extensions": "jinja2.ext.i18n", "trim_blocks": "1", "lstrip_blocks": "1"}


# Both texts of a plural message -> (singular, plural), filled by desk_texts().
PLURALS: dict[str, tuple[str, str]] = {}


def _ids(message: str | tuple[str, ...]) -> list[str]:
    texts = (
        [text for text in message if isinstance(text, str)] if isinstance(message, tuple) else []
    )
    if len(texts) == 2:  # a template's ngettext also gives its count (None)
        for text in texts:
            PLURALS[text] = (texts[0], texts[1])
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
        if _untranslated(catalog, text) and text not in UNCHANGED.get(language, ())
    }
    assert missing == {}


def _untranslated(catalog: NullTranslations, text: str) -> bool:
    """A plural text (`ngettext`) is found by its singular, in each of its forms."""
    if text in PLURALS:
        singular, plural = PLURALS[text]
        return any(catalog.ngettext(singular, plural, n) in (singular, plural) for n in (1, 2, 5))
    return catalog.gettext(text) == text


# Texts whose translation is the same word.
UNCHANGED = {"de": {"Administrator", "Browser", "Status"}, "sk": {"Editor"}}


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
