"""Slugs: ASCII-folded from titles, unique per kind under concurrency.

Uniqueness is enforced by a unique constraint; `candidates` yields the base and
then `-2`, `-3`... so a writer that loses a race simply tries the next candidate.
"""

from collections.abc import Iterator

from slugify import slugify

from app.core.html import plain_text

MAX_SLUG_LENGTH = 190


def make_slug(text: str) -> str:
    """The slug of a title: its text without markup (WordPress strips tags first), folded."""
    return slugify(plain_text(text), max_length=MAX_SLUG_LENGTH, word_boundary=False) or "untitled"


def candidates(base: str, taken: set[str]) -> Iterator[str]:
    """The base slug, then `base-N` for N = 2, 3, ..., skipping the ones known to be taken."""
    if base not in taken:
        yield base
    number = 2
    while True:
        candidate = f"{base}-{number}"
        if candidate not in taken:
            yield candidate
        number += 1
