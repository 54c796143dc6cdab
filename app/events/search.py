"""The event list's `search`, served by the `events.search_words` index.

Every word of a search must occur in the title, description or excerpt that the request's
language shows. The index holds PostgreSQL's words of those texts (its `simple` parser:
lower-cased, markup dropped, not stemmed), tagged with the language they were read in (see
migration e12a0b1c2d3e). A search word matches the words of the text that *begin* with it:
`night` finds "Nightlife" but not "Midnight" (docs/design.md#event-list).

A search word is split by the same parser (`rock'n'roll` is `rock`, `n` and `roll`), and each
of its parts must match. A word with no letter or digit is left out; a search made only of
such words matches nothing.
"""

from collections import OrderedDict

# Events without a translation in the request's language are searched in their stored texts.
STORED = "*"
TRANSLATED = "~"  # the marker word of an event translated into a language
CACHED_WORDS = 4096

_lexemes: OrderedDict[str, tuple[str, ...]] = OrderedDict()


def cached_lexemes(word: str) -> tuple[str, ...] | None:
    """The parser's words of a search word, if known (splitting needs the database)."""
    found = _lexemes.get(word)
    if found is not None:
        _lexemes.move_to_end(word)
    return found


def remember_lexemes(word: str, lexemes: tuple[str, ...]) -> None:
    _lexemes[word] = lexemes
    if len(_lexemes) > CACHED_WORDS:
        _lexemes.popitem(last=False)


def _quoted(lexeme: str) -> str:
    """A lexeme as a `tsquery` literal, taken as it is (not parsed again)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _prefix(language: str, lexeme: str) -> str:
    return _quoted(f"{language}:{lexeme}") + ":*"


def search_query(words: list[tuple[str, ...]], language: str, default_language: str) -> str | None:
    """The `tsquery` text for the words of a search (each a tuple of parser words) in a
    language, or None when no word has any letter or digit."""
    parts: list[str] = []
    for lexeme in dict.fromkeys(lexeme for word in words for lexeme in word):
        stored = _prefix(STORED, lexeme)
        if language == default_language:
            parts.append(stored)
        else:
            # Its translation when the event has one, else its stored texts.
            marker = _quoted(f"{language}:{TRANSLATED}")
            parts.append(f"({_prefix(language, lexeme)} | ({stored} & !{marker}))")
    # No event has the marker word among its stored words: a query that matches nothing.
    return " & ".join(parts) or _quoted(f"{STORED}:{TRANSLATED}")
