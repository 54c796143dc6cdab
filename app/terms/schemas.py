from pydantic import Field

from app.http.schemas import ListLinks, Schema


class TermUrls(Schema):
    self: str
    collection: str
    up: str | None = Field(None, description="The parent term (categories with a parent)")


class Term(Schema):
    """A category or tag (docs/design.md#shapes); `parent` on categories only."""

    id: int
    count: int = Field(description="Published events using the term")
    description: str
    name: str
    slug: str
    taxonomy: str = Field(description="tribe_events_cat or post_tag")
    parent: int | None = Field(None, description="Parent category ID, 0 for none (categories)")
    meta: list[object]
    url: str = Field(description="Public archive page of the term")
    urls: TermUrls
    links: dict[str, object] | None = Field(
        None, alias="_links", description="Single reads and writes"
    )


class EmbeddedTerm(Schema):
    """A term inside an event (docs/design.md#shapes)."""

    name: str
    slug: str
    term_group: int
    term_taxonomy_id: int
    taxonomy: str
    description: str
    parent: int
    count: int
    filter: str
    id: int
    urls: TermUrls


class CategoryList(ListLinks):
    categories: list[Term]


class TagList(ListLinks):
    tags: list[Term]
