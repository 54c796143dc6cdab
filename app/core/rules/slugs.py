"""Slugs: ASCII-folded from titles, unique per kind under concurrency.

Uniqueness is enforced by a unique constraint; `candidates` yields the base and
then `-2`, `-3`... so a writer that loses a race simply tries the next candidate.
"""

import re
from collections.abc import Iterator

from slugify import slugify

from app.core.rules.html import plain_text

MAX_SLUG_LENGTH = 190
# WordPress drops apostrophes and quotes, straight and typographic, instead of turning them
# into hyphens (sanitize_title_with_dashes): `Last Week's Match` is `last-weeks-match`.
_QUOTES = str.maketrans(dict.fromkeys("'\"`´‘’‚‛“”„‟«»‹›"))
# A trashed record's slug (WordPress's wp_add_trashed_suffix_to_post_name_for_post), which
# frees the slug for other records. Written slugs never hold `_`, so the suffix is
# unambiguous; `-N` follows it when a trashed record already has it.
TRASHED_SUFFIX = "__trashed"
_TRASHED = re.compile(r"__trashed(?:-[0-9]+)?$")
# Room for the suffix and a `-N` in the slug columns (200 characters).
_TRASHED_KEEP = 200 - len(TRASHED_SUFFIX) - 4


def make_slug(text: str) -> str:
    """The slug of a title: its text without markup (WordPress strips tags first) and
    without quotes, folded."""
    text = plain_text(text).translate(_QUOTES)
    return slugify(text, max_length=MAX_SLUG_LENGTH, word_boundary=False) or "untitled"


def is_trashed_slug(slug: str) -> bool:
    return _TRASHED.search(slug) is not None


def trashed_slug(slug: str) -> str:
    """`<slug>__trashed`, the base of a trashed record's slug."""
    return slug[:_TRASHED_KEEP] + TRASHED_SUFFIX


def untrashed_slug(slug: str) -> str:
    """The slug a trashed record had (the one it asks for when restored)."""
    return _TRASHED.sub("", slug)


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
