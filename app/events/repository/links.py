"""The statements that write an event with its links: the event row under a free slug, its
terms and its organizers, in one statement (data-modifying CTEs), and the replacement of an
event's links. Each is built once per shape (the columns given, the kinds of links) with
every value a bound parameter: building and compiling them cost more than running them."""

from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import BigInteger, Select, String, Table, all_, bindparam, delete, select, true
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.sql import func

from app.core.database.sql import escape_like, free_slug, with_defaults
from app.models import Event, Term, event_organizers, event_terms

EVENTS = cast(Table, Event.__table__)
IDS = ARRAY(BigInteger)


@dataclass(frozen=True, slots=True)
class LinkRows:
    """What a write links: the terms (`term_ids`) replacing those of `taxonomies`, and the
    organizers in order (None: not sent, unchanged)."""

    taxonomies: list[str] = field(default_factory=list)
    term_ids: list[int] = field(default_factory=list)
    organizer_ids: list[int] | None = None

    def values(self) -> dict[str, Any]:
        # Each once: an organizer named twice would be upserted twice by one statement.
        return {
            "term_ids": list(dict.fromkeys(self.term_ids)),
            "organizer_ids": list(dict.fromkeys(self.organizer_ids or [])),
            "taxonomies": self.taxonomies,
        }


def insert_values(
    columns: dict[str, Any], slug: str, links: LinkRows
) -> tuple[frozenset[str], dict[str, Any]]:
    """The columns to insert (defaults filled in) and the parameters of `insert_statement`."""
    values = with_defaults(EVENTS, columns)
    return frozenset(values), {
        **{f"column_{name}": value for name, value in values.items()},
        "slug_base": slug,
        "slug_pattern": escape_like(slug) + "-%",
        "slug_prefix": f"{slug}-",
        **links.values(),
    }


def insert_statement(names: frozenset[str], links: LinkRows) -> Select[Any]:
    """INSERT of a new event (the columns `names`, then the free slug) with its links,
    answering its ID; no row when the slug was taken meanwhile (ON CONFLICT DO NOTHING)."""
    key = (names, bool(links.term_ids), bool(links.organizer_ids))
    stmt = _INSERTS.get(key)
    if stmt is None:
        values = {name: bindparam(f"column_{name}", type_=EVENTS.c[name].type) for name in names}
        new = (
            pg_insert(EVENTS)
            .values(**values, slug=free_slug(EVENTS))
            .on_conflict_do_nothing(index_elements=["slug"])
            .returning(EVENTS.c.id)
            .cte("new_event")
        )
        stmt = select(new.c.id)
        for linked in _link_rows(new.c.id, links, new):
            stmt = stmt.add_cte(linked)
        _INSERTS[key] = stmt
    return stmt


def link_statement(links: LinkRows, *, replace: bool) -> Select[Any] | None:
    """The event's (`event_id`) links of `links`; with `replace`, those of the taxonomies
    sent (and the organizers, when sent) that `links` does not keep go. None: nothing to do."""
    organizers = links.organizer_ids
    key = (
        bool(links.term_ids),
        bool(organizers),
        organizers is not None,
        bool(links.taxonomies),
        replace,
    )
    if key in _LINKS:
        return _LINKS[key]
    event_id = bindparam("event_id", type_=BigInteger)
    parts = _link_rows(event_id, links)
    if replace:
        parts += _unlink_rows(event_id, links)
    stmt = None
    if parts:
        stmt = select(true())
        for part in parts:
            stmt = stmt.add_cte(part)
    _LINKS[key] = stmt
    return stmt


def _link_rows(event_id: Any, links: LinkRows, new: Any = None) -> list[Any]:
    """INSERTs (as CTEs) of the links to terms and organizers of the event `event_id` (a
    parameter, or the ID column of `new`, the CTE inserting the event); an existing link
    stays, with its new position."""
    parts: list[Any] = []

    def each(values: Any) -> Any:  # a row per value, joined to the new event's if any
        return values if new is None else new.join(values, true())

    if links.term_ids:
        terms = func.unnest(bindparam("term_ids", type_=IDS)).table_valued("term_id")
        terms = terms.render_derived()
        rows = select(event_id, terms.c.term_id).select_from(each(terms))
        parts.append(
            pg_insert(event_terms)
            .from_select(["event_id", "term_id"], rows)
            .on_conflict_do_nothing()
            .cte("linked_terms")
        )
    if links.organizer_ids:
        organizers = func.unnest(bindparam("organizer_ids", type_=IDS)).table_valued(
            "organizer_id", with_ordinality="position"
        )
        organizers = organizers.render_derived()
        rows = select(event_id, organizers.c.organizer_id, organizers.c.position - 1)
        linked = pg_insert(event_organizers).from_select(
            ["event_id", "organizer_id", "position"], rows.select_from(each(organizers))
        )
        parts.append(
            linked.on_conflict_do_update(
                index_elements=["event_id", "organizer_id"],
                set_={"position": linked.excluded.position},
                where=event_organizers.c.position != linked.excluded.position,
            ).cte("linked_organizers")
        )
    return parts


def _unlink_rows(event_id: Any, links: LinkRows) -> list[Any]:
    """DELETEs (as CTEs) of the event's links that `links` replaces and does not keep."""
    parts: list[Any] = []
    if links.taxonomies:
        terms = event_terms.c
        taxonomies = bindparam("taxonomies", type_=ARRAY(String))
        parts.append(
            delete(event_terms)
            .where(
                terms.event_id == event_id,
                terms.term_id.in_(select(Term.id).where(Term.taxonomy == func.any(taxonomies))),
                terms.term_id != all_(bindparam("term_ids", type_=IDS)),
            )
            .cte("unlinked_terms")
        )
    if links.organizer_ids is not None:
        organizers = event_organizers.c
        parts.append(
            delete(event_organizers)
            .where(
                organizers.event_id == event_id,
                organizers.organizer_id != all_(bindparam("organizer_ids", type_=IDS)),
            )
            .cte("unlinked_organizers")
        )
    return parts


_INSERTS: dict[tuple[frozenset[str], bool, bool], Select[Any]] = {}
_LINKS: dict[tuple[bool, ...], Select[Any] | None] = {}
