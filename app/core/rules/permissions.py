"""Roles, capabilities and the one answer to "may this user do X to this record".

Capabilities follow The Events Calendar's copy of WordPress roles (docs/design.md#users-and-permissions):
editors and administrators manage everything; authors publish and manage their own
records; contributors edit their own unpublished records; subscribers only read.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from app.core.errors import cannot_set_status, forbidden
from app.core.rules.constants import PUBLISH, UNPUBLISHED


class Role(StrEnum):
    ADMINISTRATOR = "administrator"
    EDITOR = "editor"
    AUTHOR = "author"
    CONTRIBUTOR = "contributor"
    SUBSCRIBER = "subscriber"


RANK = {
    Role.SUBSCRIBER: 0,
    Role.CONTRIBUTOR: 1,
    Role.AUTHOR: 2,
    Role.EDITOR: 3,
    Role.ADMINISTRATOR: 4,
}


Action = Literal["read", "edit", "delete"]
TermAction = Literal["manage_categories", "manage_tags"]


@dataclass(frozen=True, slots=True)
class Principal:
    """The authenticated caller."""

    id: int
    login: str
    role: Role

    def at_least(self, role: Role) -> bool:
        return RANK[self.role] >= RANK[role]


User = Principal | None


@dataclass(frozen=True, slots=True)
class Need:
    """What an operation needs, declared once: the lowest role that may do it (the route's
    OpenAPI `security` says "signed in" from it, app/http/openapi.py) and the message key
    (app/i18n/locale/api.pot) a 403 says it with, beside the caller's role."""

    role: Role
    says: str


# Creating events, venues, organizers and media (`edit_posts`), and reading the media library.
POSTS = Need(Role.CONTRIBUTOR, "need_posts")
OTHERS_RECORDS = Need(Role.EDITOR, "need_others_records")
PUBLISHED_RECORDS = Need(Role.AUTHOR, "need_published_records")
GIVE_RECORDS = Need(Role.EDITOR, "need_give_records")
OTHERS_MEDIA = Need(Role.EDITOR, "need_others_media")
CATEGORIES = Need(Role.AUTHOR, "need_categories")
TAGS = Need(Role.EDITOR, "need_tags")
WEBHOOKS = Need(Role.ADMINISTRATOR, "need_webhooks")
# An event's attendees (names, addresses, figures): its author, and editors and up.
ATTENDEES = Need(Role.EDITOR, "need_attendees")


def can_create_posts(user: User) -> bool:
    """Create events, venues and organizers (`edit_posts`: contributor and up)."""
    return user is not None and user.at_least(POSTS.role)


def can_publish(user: User) -> bool:
    return user is not None and user.at_least(Role.AUTHOR)


def can_see_all_statuses(user: User) -> bool:
    """Editors and up see every status of everybody's records in lists."""
    return user is not None and user.at_least(Role.EDITOR)


def can_post_unfiltered_html(user: User) -> bool:
    """WordPress's `unfiltered_html`: editors and up keep any markup they write; the markup of
    everybody else is sanitised (app.core.rules.html)."""
    return user is not None and user.at_least(Role.EDITOR)


def can_see_attendees(user: User, event_author_id: int | None) -> bool:
    """Who sees an event's attendees and its attendance figures: editors and administrators,
    and the event's author (any role that may write); nobody else sees an address anywhere."""
    if user is None:
        return False
    if user.at_least(ATTENDEES.role):
        return True
    own = event_author_id is not None and event_author_id == user.id
    return own and can_create_posts(user)


def may_see_some_attendees(user: User) -> bool:
    """Whether `can_see_attendees` may hold for some event (a writer's own, every one for
    editors and up): the event reads fetch the attendance figures for these callers alone."""
    return can_create_posts(user)


def term_need(action: TermAction) -> Need:
    """Categories: author and up (`publish_tribe_events`); tags: editor and up."""
    return CATEGORIES if action == "manage_categories" else TAGS


def can_manage_terms(user: User, action: TermAction) -> bool:
    return user is not None and user.at_least(term_need(action).role)


def may(user: User, action: Action, author_id: int | None, status: str) -> bool:
    """May `user` read/edit/delete the post-like record written by `author_id` in `status`?"""
    if action == "read" and status == PUBLISH:
        return True
    if user is None:
        return False
    if user.at_least(Role.EDITOR):
        return True
    own = author_id is not None and author_id == user.id
    if action == "read":
        return own and user.at_least(Role.CONTRIBUTOR)
    if user.role == Role.AUTHOR:
        return own
    if user.role == Role.CONTRIBUTOR:
        return own and status in UNPUBLISHED
    return False


def require(user: User, allowed: bool, need: Need) -> None:
    """401 for anonymous callers, 403 for signed-in ones saying what `need` is, unless
    `allowed`."""
    if not allowed:
        if user is None:
            raise forbidden(None)
        raise forbidden(user.login, user.role.value, need.says)


def require_role(user: User, need: Need) -> None:
    """`require` for an operation that needs only a role."""
    require(user, user is not None and user.at_least(need.role), need)


def record_need(user: Principal, author_id: int | None) -> Need:
    """What editing or deleting a record `may` refused needs: another's record needs an
    editor; one's own (a contributor's published one), an author."""
    own = author_id is not None and author_id == user.id
    return PUBLISHED_RECORDS if own else OTHERS_RECORDS


def scale_status(user: User, requested: str | None) -> str:
    """The status a write really gets: contributors cannot publish (docs/design.md#statuses).
    A contributor's records are draft or pending: `publish` and `future` become `pending`
    (the reference's scaling), while `private` and `trash` would skip review (a private
    record is out of the editors' pending queue) and are refused, 403 `rest_cannot_publish`,
    on create and update alike (a contributor trashes their own draft with DELETE)."""
    if can_publish(user):
        return requested or "publish"
    if requested in (None, ""):
        return "draft"
    if requested in ("publish", "future"):
        return "pending"
    if requested not in UNPUBLISHED:
        raise cannot_set_status(requested)
    return requested


def poster(user: User) -> Principal:
    """The caller of a write to events, venues or organizers: 401 when anonymous, 403 without
    the right to create such records (subscribers)."""
    require(user, can_create_posts(user), POSTS)
    assert user is not None  # can_create_posts() is false for anonymous callers
    return user
