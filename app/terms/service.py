"""Categories and tags: one service for both kinds, which differ in a few rules (tags have no
parent; authors may manage categories, only editors tags)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from app.core.caching.etags import etag_of, if_match_holds
from app.core.errors import (
    ApiError,
    InvalidParams,
    MissingParams,
    NotFound,
    invalid,
    note,
    precondition_failed,
    unknown_ids,
)
from app.core.rules.constants import MAX_ID
from app.core.rules.html import Markup
from app.core.rules.paging import Page
from app.core.rules.permissions import (
    TermAction,
    can_post_unfiltered_html,
    require_role,
    term_need,
)
from app.core.web.refusals import Refused
from app.core.web.responses import dumps
from app.http.context import RequestContext
from app.http.params import check, refused_values
from app.models import CATEGORY, TAG
from app.posts.service import check_visible_event
from app.terms.commands import TermQuery, TermWrite
from app.terms.params import (
    CategoryListParams,
    CategoryWriteParams,
    TagWriteParams,
    TermListParams,
    TermWriteParams,
)
from app.terms.repository import (
    DuplicateName,
    DuplicateSlug,
    TermRecord,
    TermRepository,
)
from app.terms.schemas import CategoryList, TagList
from app.terms.serializer import term_body

Body = dict[str, Any]


@dataclass(frozen=True)
class TermKind:
    taxonomy: str
    path: str  # route segment: categories / tags
    singular: str  # error codes: category / tag
    action: TermAction
    list_params: type[TermListParams]
    write_params: type[TermWriteParams]
    list_schema: type[BaseModel]


CATEGORIES = TermKind(
    CATEGORY, "categories", "category", "manage_categories",
    CategoryListParams, CategoryWriteParams, CategoryList,
)  # fmt: skip
TAGS = TermKind(TAG, "tags", "tag", "manage_tags", TermListParams, TagWriteParams, TagList)


class TermService:
    def __init__(self, kind: TermKind, ctx: RequestContext) -> None:
        self.kind = kind
        self.ctx = ctx
        self.repo = TermRepository(
            ctx.session, kind.taxonomy, ctx.language, ctx.settings.default_language
        )

    # ---- reads ----------------------------------------------------------------------

    async def list(self, query: TermQuery, page: Page) -> tuple[list[TermRecord], int]:
        """(the terms of the page, total)."""
        for name, ids in (("include", query.include), ("exclude", query.exclude)):
            if ids:
                await self._check_ids(name, ids)
        if query.parent:
            await self._check_ids("parent", [query.parent])
        if query.event is not None:
            await check_visible_event(self.ctx, query.event_parameter, query.event)
        return await self.repo.find(query, page)

    async def get(self, term_id: int) -> TermRecord:
        term = await self.repo.get(term_id) if term_id <= MAX_ID else None
        if term is None:
            raise NotFound(self.kind.singular, term_id)
        return term

    def etag(self, term: TermRecord) -> str:
        """The ETag of a GET of `term` (app/core/caching/etags.py: its body's digest)."""
        return etag_of(dumps(term_body(term, self.ctx.urls, with_links=True)))

    async def visible_bodies(self, term_ids: Sequence[int]) -> dict[int, Body]:
        """What a GET of each of `term_ids` answers (terms are public), those that exist."""
        terms = await self.repo.get_many([term_id for term_id in term_ids if term_id <= MAX_ID])
        return {term.id: term_body(term, self.ctx.urls, with_links=True) for term in terms}

    async def _for_writing(self, term_id: int) -> TermRecord:
        """The term, locked for this transaction (concurrent writers go one at a time), once
        the request's `If-Match` holds (checked under the lock: see app/core/caching/etags.py)."""
        if term_id <= MAX_ID:
            await self.repo.lock(term_id)
        term = await self.get(term_id)
        condition = self.ctx.if_match
        if condition is not None and not if_match_holds(condition, self.etag(term)):
            raise precondition_failed()
        return term

    # ---- writes ---------------------------------------------------------------------

    def _authorize(self) -> None:
        require_role(self.ctx.user, term_need(self.kind.action))

    def _parent(self, write: TermWrite) -> int | None:
        """The requested parent (0 = none), or None when not sent; tags refuse one."""
        if self.kind.taxonomy == TAG or isinstance(write.parent, Refused):
            if write.parent is not None:
                raise ApiError(400, "rest_taxonomy_not_hierarchical")
            return None
        return write.parent

    async def _check_parent(self, parent: int | None, term_id: int | None) -> None:
        if not parent:
            return
        await self._check_ids("parent", [parent])
        if term_id is not None and await self.repo.is_ancestor(parent, term_id):
            raise ApiError(400, "rest_invalid_param", "term_parent_loop")

    async def _check_ids(self, name: str, ids: Sequence[int]) -> None:
        missing = await self.repo.missing_ids(ids)
        check(name, not missing, unknown_ids(name, self.kind.singular, missing))

    def _duplicate(self, exc: DuplicateName, parent: int | None) -> ApiError:
        key = "term_exists_parent" if self.kind.taxonomy == CATEGORY and parent else "term_exists"
        data = {"term_id": exc.term_id} if exc.term_id is not None else {}
        return ApiError(400, "term_exists", key, data=data)

    def _texts(self, write: TermWrite) -> dict[str, Any]:
        """Name, description and slug as sent, markup sanitised for callers without unfiltered
        HTML (authors manage categories)."""
        markup = Markup(can_post_unfiltered_html(self.ctx.user))
        sent = {"name": write.name, "description": write.description, "slug": write.slug}
        texts: dict[str, Any] = {name: text for name, text in sent.items() if text is not None}
        if "name" in texts:
            texts["name"] = markup.inline(texts["name"]).strip()
            # nothing left but markup
            check("name", texts["name"] != "", note("only_markup", name="name"))
        if "description" in texts:
            texts["description"] = markup.html(texts["description"])
        return texts

    async def create(self, write: TermWrite) -> TermRecord:
        self._authorize()
        self._check_values(write)
        if write.name is None:
            raise MissingParams(["name"])
        texts = self._texts(write)
        parent = self._parent(write)
        await self._check_parent(parent, None)
        try:
            term_id = await self.repo.create(
                name=texts["name"],
                description=texts.get("description", ""),
                slug=write.slug,
                parent_id=parent or None,
            )
        except DuplicateName as exc:
            raise self._duplicate(exc, parent) from None
        return await self.get(term_id)

    async def update(self, term_id: int, write: TermWrite) -> TermRecord:
        """Change what was sent. Any name is allowed, as in WordPress (only a create refuses
        a taken one); a taken slug is 400 on `slug` (terms keep WordPress's refusal; posts
        get the next free `-N` instead)."""
        self._authorize()
        term = await self._for_writing(term_id)
        self._check_values(write)
        parent = self._parent(write)
        await self._check_parent(parent, term.id)
        changes = self._texts(write)
        if parent is not None:
            changes["parent_id"] = parent or None
        try:
            await self.repo.update(term.id, changes)
        except DuplicateSlug:
            raise invalid("slug", note("slug_taken", slug=changes.get("slug", ""))) from None
        return await self.get(term.id)

    def _check_values(self, write: TermWrite) -> None:
        """What the door refused, then what the kind's limits refuse of values a door did
        not read (the desk's): one 400."""
        write.refused.raise_any()
        notes = refused_values(self.kind.write_params, write.values())
        if notes:
            raise InvalidParams(notes)

    async def delete(self, term_id: int) -> TermRecord:
        """Delete permanently (terms have no trash); children move up to its parent. The
        term as it was."""
        self._authorize()
        term = await self._for_writing(term_id)
        await self.repo.delete(term)
        return term
