"""The desk's categories (a tree: each has at most one parent) and tags: lists and editors,
through the API's term service (app/terms/service.py), which decides who may manage them
(authors: categories, editors: tags), refuses a parent that is the category itself or one of
its descendants, and keeps names unique. Names and descriptions are translated side by side,
as in the venues' editor."""

from dataclasses import dataclass

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.core.errors import ApiError
from app.core.rules.paging import Page
from app.core.rules.permissions import can_manage_terms
from app.core.web.refusals import Refusals
from app.desk.context import DeskContext
from app.desk.refusal import Refusal
from app.desk.screens.api_calls import (
    Form,
    TranslationRefused,
    flash,
    form_values,
    page_number,
    refusal,
    service_context,
    translation_fields,
    translation_languages,
    translation_params,
    write_step,
)
from app.desk.screens.editor_routes import editor_routes
from app.desk.screens.post_screens import N_
from app.http.pagination import MAX_PER_PAGE
from app.terms.commands import NOT_A_PARENT, TermQuery, TermWrite
from app.terms.repository import TermRecord
from app.terms.service import CATEGORIES, TAGS, TermKind, TermService

PER_PAGE = 20


@dataclass(frozen=True)
class TreeRow:
    """A category in the tree, and its depth (0 for a top-level one)."""

    term: TermRecord
    depth: int


def tree(terms: list[TermRecord]) -> list[TreeRow]:
    """The categories in tree order: each after its parent, siblings by name. A category
    whose parent is not among them is shown at the top (the tree is never lost)."""
    ids = {term.id for term in terms}
    children: dict[int, list[TermRecord]] = {}
    for term in sorted(terms, key=lambda term: (term.name.casefold(), term.id)):
        parent = term.parent_id or 0
        children.setdefault(parent if parent in ids else 0, []).append(term)
    rows: list[TreeRow] = []
    seen: set[int] = set()

    def walk(parent: int, depth: int) -> None:
        for term in children.get(parent, []):
            if term.id not in seen:  # a loop in the data never hangs the page
                seen.add(term.id)
                rows.append(TreeRow(term, depth))
                walk(term.id, depth + 1)

    walk(0, 0)
    return rows


def _texts(term: TermRecord) -> dict[str, str]:
    """The texts of a term that are translated, as it is read in a language."""
    return {"name": term.name, "description": term.description}


def descendants(rows: list[TreeRow], term_id: int) -> set[int]:
    """`term_id` and every category below it: what its parent select does not offer."""
    below = {term_id}
    for row in rows:  # tree order: a parent comes before its children
        if (row.term.parent_id or 0) in below:
            below.add(row.term.id)
    return below


@dataclass(frozen=True)
class TermScreens:
    kind: TermKind
    title: str
    new_title: str
    edit_title: str

    @property
    def path(self) -> str:
        return self.kind.path  # categories/, tags/

    @property
    def removal(self) -> str:
        return "delete"

    @property
    def hierarchical(self) -> bool:
        return self.kind is CATEGORIES

    def may_manage(self, desk: DeskContext) -> bool:
        return can_manage_terms(desk.principal, self.kind.action)

    # ---- reading ------------------------------------------------------------------------

    async def _all(self, desk: DeskContext) -> list[TermRecord]:
        """Every category (the tree needs them all), a hundred at a time."""
        terms: list[TermRecord] = []
        number = 1
        while True:
            ctx = service_context(desk, language=desk.language)
            query = TermQuery(hide_empty=False)
            page, total = await TermService(self.kind, ctx).list(query, Page(number, MAX_PER_PAGE))
            terms.extend(page)
            if not page or len(terms) >= total:
                return terms
            number += 1

    async def _editing(self, desk: DeskContext, term_id: int) -> tuple[TermRecord, Form, str]:
        """(the term, the editor's form, its version: the ETag of the API's GET)."""
        service = TermService(self.kind, service_context(desk))
        term = await service.get(term_id)
        form: Form = {"name": term.name, "slug": term.slug, "description": term.description}
        form["parent"] = str(term.parent_id or 0)
        for language in translation_languages(desk):
            ctx = service_context(desk, language=language)
            shown = await TermService(self.kind, ctx).get(term_id)
            form.update(translation_fields(language, _texts(shown), form))
        return term, form, service.etag(term)

    async def _parents(self, desk: DeskContext, term_id: int | None) -> list[tuple[str, str]]:
        """The parent select's choices: none, or any category that is neither this one nor
        below it (the service refuses those too, should a form send one)."""
        rows = tree(await self._all(desk))
        excluded = descendants(rows, term_id) if term_id is not None else set()
        choices = [("0", "—")]
        choices.extend(
            (str(row.term.id), "\u2003" * row.depth + row.term.name)
            for row in rows
            if row.term.id not in excluded
        )
        return choices

    # ---- writing ------------------------------------------------------------------------

    def _write(self, form: Form) -> TermWrite:
        # Empty texts are not sent: the service takes no empty name, slug or description.
        texts = {
            name: str(form.get(name) or "") or None for name in ("name", "slug", "description")
        }
        parent = str(form.get("parent") or "0") if self.hierarchical else None
        return TermWrite(
            name=texts["name"],
            description=texts["description"],
            slug=texts["slug"],
            parent=int(parent) if parent and parent.isdigit() else None,
            # A parent that is no term's number (the select offers none such).
            refused=Refusals({"parent": NOT_A_PARENT} if parent and not parent.isdigit() else {}),
        )

    async def _write_translations(self, desk: DeskContext, term_id: int, form: Form) -> None:
        for language in translation_languages(desk):
            shown = await TermService(self.kind, service_context(desk, language=language)).get(
                term_id
            )
            texts = translation_params(form, language, _texts(shown))
            if texts:
                ctx = service_context(desk, language=language)
                write = TermWrite(name=texts.get("name"), description=texts.get("description"))
                try:
                    await TermService(self.kind, ctx).update(term_id, write)
                except ApiError as exc:
                    raise TranslationRefused(exc, language) from exc

    # ---- pages --------------------------------------------------------------------------

    async def list_page(self, desk: DeskContext, request: Request) -> Response:
        search = (request.query_params.get("search") or "").strip()
        problem, rows, total, page = None, [], 0, 1
        try:
            if self.hierarchical and not search:
                rows = tree(await self._all(desk))
                total = len(rows)
            else:
                page = page_number(request.query_params.get("page"))
                query = TermQuery(search=search or None, hide_empty=False)
                ctx = service_context(desk, language=desk.language)
                items, total = await TermService(self.kind, ctx).list(query, Page(page, PER_PAGE))
                rows = [TreeRow(term, 0) for term in items]
        except ApiError as exc:
            problem = refusal(exc, desk.language)
        return desk.render(
            "desk/terms_list.html",
            status=problem.status if problem else 200,
            screen=self,
            rows=rows,
            total=total,
            search=search,
            page=page,
            pages=max(1, -(-total // PER_PAGE)) if search or not self.hierarchical else 1,
            problem=problem,
            may_manage=self.may_manage(desk),
        )

    async def _editor(
        self,
        desk: DeskContext,
        *,
        form: Form,
        term: TermRecord | None,
        version: str,
        problem: Refusal | None = None,
        theirs: Form | None = None,
    ) -> Response:
        term_id = term.id if term else None
        parents = await self._parents(desk, term_id) if self.hierarchical else []
        return desk.render(
            "desk/terms_editor.html",
            status=problem.status if problem else 200,
            screen=self,
            form=form,
            term=term,
            version=version,
            problem=problem,
            theirs=theirs,
            parents=parents,
            editable=self.may_manage(desk),
            languages=translation_languages(desk),
            default_language=desk.settings.default_language,
        )

    async def new_page(self, desk: DeskContext) -> Response:
        return await self._editor(desk, form={"parent": "0"}, term=None, version="")

    async def create(self, desk: DeskContext) -> Response:
        form = await form_values(desk)
        try:
            async with write_step(desk):
                term = await TermService(self.kind, service_context(desk)).create(self._write(form))
                await self._write_translations(desk, term.id, form)
        except (ApiError, TranslationRefused) as exc:
            problem = refusal(exc, desk.language)
            return await self._editor(desk, form=form, term=None, version="", problem=problem)
        return desk.redirect(f"{self.path}/{term.id}/edit", flash=flash(desk, N_("Saved.")))

    async def edit_page(self, desk: DeskContext, term_id: int) -> Response:
        term, form, version = await self._editing(desk, term_id)  # a refusal: the error page
        return await self._editor(desk, form=form, term=term, version=version)

    async def update(self, desk: DeskContext, term_id: int) -> Response:
        form = await form_values(desk)
        version = form.get("version", "")
        try:
            async with write_step(desk):
                ctx = service_context(desk, if_match=version)
                await TermService(self.kind, ctx).update(term_id, self._write(form))
                await self._write_translations(desk, term_id, form)
        except (ApiError, TranslationRefused) as exc:
            problem = refusal(exc, desk.language)
            term, theirs, current = await self._editing(desk, term_id)
            conflict = problem.conflict
            return await self._editor(
                desk,
                form=form,
                term=term,
                version=current if conflict else version,
                problem=problem,
                theirs=theirs if conflict else None,
            )
        return desk.redirect(f"{self.path}/{term_id}/edit", flash=flash(desk, N_("Saved.")))

    async def remove(self, desk: DeskContext, term_id: int) -> Response:
        """Delete permanently (terms have no trash)."""
        form = await form_values(desk)
        ctx = service_context(desk, if_match=form.get("version", ""))
        await TermService(self.kind, ctx).delete(term_id)  # a refusal: the error page
        return desk.redirect(f"{self.path}/", flash=flash(desk, N_("Deleted.")))

    def allowed(self, desk: DeskContext) -> bool:
        """Who may manage the kind (the nav's rule): authors categories, editors tags."""
        return self.may_manage(desk)

    def router(self) -> APIRouter:
        return editor_routes(self)


CATEGORY_SCREENS = TermScreens(
    CATEGORIES, N_("Categories"), N_("New category"), N_("Edit category")
)
TAG_SCREENS = TermScreens(TAGS, N_("Tags"), N_("New tag"), N_("Edit tag"))

router = APIRouter()
router.include_router(CATEGORY_SCREENS.router())
router.include_router(TAG_SCREENS.router())
