"""Permission rules (`app.core.rules.permissions`), table-driven from the design's role table.

| Action                    | subscriber | contributor           | author          | editor / admin |
|---------------------------|------------|-----------------------|-----------------|----------------|
| Read published records    | yes        | yes                   | yes             | yes            |
| Read unpublished records  | -          | own                   | own             | all            |
| Edit or delete records    | -          | own `draft`/`pending` | own, any status | all            |

Anonymous callers read published records only. Pure functions only: no database, no client.
"""

from collections.abc import Iterator

import pytest

from app.core.errors import ApiError
from app.core.rules.permissions import (
    WEBHOOKS,
    Action,
    Principal,
    Role,
    can_create_posts,
    can_manage_terms,
    can_publish,
    can_see_all_statuses,
    may,
    poster,
    require,
    scale_status,
)

ME = 7
SOMEONE_ELSE = 8

ALL_STATUSES = frozenset({"publish", "future", "draft", "pending", "private", "trash"})
PUBLISHED = frozenset({"publish"})
UNPUBLISHED = frozenset({"draft", "pending"})
NOTHING: frozenset[str] = frozenset()

ANONYMOUS = "anonymous"
ACTIONS: tuple[Action, ...] = ("read", "edit", "delete")
ROLES = (ANONYMOUS, *(role.value for role in Role))


def user(role: str) -> Principal | None:
    return None if role == ANONYMOUS else Principal(id=ME, login=role, role=Role(role))


# role -> action -> (statuses allowed on own records, statuses allowed on others' records)
MATRIX: dict[str, dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    ANONYMOUS: {
        "read": (PUBLISHED, PUBLISHED),
        "edit": (NOTHING, NOTHING),
        "delete": (NOTHING, NOTHING),
    },
    Role.SUBSCRIBER: {
        "read": (PUBLISHED, PUBLISHED),
        "edit": (NOTHING, NOTHING),
        "delete": (NOTHING, NOTHING),
    },
    Role.CONTRIBUTOR: {
        "read": (ALL_STATUSES, PUBLISHED),
        "edit": (UNPUBLISHED, NOTHING),
        "delete": (UNPUBLISHED, NOTHING),
    },
    Role.AUTHOR: {
        "read": (ALL_STATUSES, PUBLISHED),
        "edit": (ALL_STATUSES, NOTHING),
        "delete": (ALL_STATUSES, NOTHING),
    },
    Role.EDITOR: {
        "read": (ALL_STATUSES, ALL_STATUSES),
        "edit": (ALL_STATUSES, ALL_STATUSES),
        "delete": (ALL_STATUSES, ALL_STATUSES),
    },
    Role.ADMINISTRATOR: {
        "read": (ALL_STATUSES, ALL_STATUSES),
        "edit": (ALL_STATUSES, ALL_STATUSES),
        "delete": (ALL_STATUSES, ALL_STATUSES),
    },
}


def matrix_cases() -> Iterator[object]:
    for role in ROLES:
        for action in ACTIONS:
            own_allowed, other_allowed = MATRIX[role][action]
            for whose, author_id, allowed in (
                ("own", ME, own_allowed),
                ("other", SOMEONE_ELSE, other_allowed),
                ("no-author", None, other_allowed),
            ):
                for status in sorted(ALL_STATUSES):
                    expected = status in allowed
                    yield pytest.param(
                        role,
                        action,
                        author_id,
                        status,
                        expected,
                        id=f"{role}-{action}-{whose}-{status}-{'yes' if expected else 'no'}",
                    )


def test_matrix_covers_every_role() -> None:
    assert set(MATRIX) == {ANONYMOUS, *Role}


@pytest.mark.parametrize(
    ("role", "action", "author_id", "status", "expected"), list(matrix_cases())
)
def test_may(role: str, action: Action, author_id: int | None, status: str, expected: bool) -> None:
    assert may(user(role), action, author_id, status) is expected


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        pytest.param(Role.SUBSCRIBER, False, id="subscriber"),
        pytest.param(Role.CONTRIBUTOR, True, id="contributor"),
        pytest.param(Role.AUTHOR, True, id="author"),
        pytest.param(Role.EDITOR, True, id="editor"),
        pytest.param(Role.ADMINISTRATOR, True, id="administrator"),
    ],
)
def test_own_draft_is_judged_by_id_not_login(role: Role, expected: bool) -> None:
    # Same login, different id: not the same person (only editors and up may edit it).
    me = Principal(id=ME, login="same", role=role)
    other = Principal(id=SOMEONE_ELSE, login="same", role=role)
    assert may(me, "edit", ME, "draft") is expected
    assert may(other, "edit", ME, "draft") is (role in (Role.EDITOR, Role.ADMINISTRATOR))


# ---- capabilities --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "create", "publish", "see_all", "categories", "tags"),
    [
        pytest.param(ANONYMOUS, False, False, False, False, False, id="anonymous"),
        pytest.param(Role.SUBSCRIBER, False, False, False, False, False, id="subscriber"),
        pytest.param(Role.CONTRIBUTOR, True, False, False, False, False, id="contributor"),
        pytest.param(Role.AUTHOR, True, True, False, True, False, id="author"),
        pytest.param(Role.EDITOR, True, True, True, True, True, id="editor"),
        pytest.param(Role.ADMINISTRATOR, True, True, True, True, True, id="administrator"),
    ],
)
def test_capabilities(
    role: str, create: bool, publish: bool, see_all: bool, categories: bool, tags: bool
) -> None:
    caller = user(role)
    assert can_create_posts(caller) is create
    assert can_publish(caller) is publish
    assert can_see_all_statuses(caller) is see_all
    assert can_manage_terms(caller, "manage_categories") is categories
    assert can_manage_terms(caller, "manage_tags") is tags


@pytest.mark.parametrize(
    ("role", "other", "expected"),
    [
        pytest.param(Role.ADMINISTRATOR, Role.EDITOR, True, id="administrator-over-editor"),
        pytest.param(Role.EDITOR, Role.EDITOR, True, id="editor-equals-editor"),
        pytest.param(Role.EDITOR, Role.ADMINISTRATOR, False, id="editor-under-administrator"),
        pytest.param(Role.AUTHOR, Role.CONTRIBUTOR, True, id="author-over-contributor"),
        pytest.param(Role.CONTRIBUTOR, Role.AUTHOR, False, id="contributor-under-author"),
        pytest.param(Role.SUBSCRIBER, Role.CONTRIBUTOR, False, id="subscriber-under-all"),
    ],
)
def test_at_least(role: Role, other: Role, expected: bool) -> None:
    assert Principal(id=ME, login="x", role=role).at_least(other) is expected


# ---- scale_status --------------------------------------------------------------------


def label(requested: str | None) -> str:
    return {None: "absent", "": "empty"}.get(requested, str(requested))


@pytest.mark.parametrize(
    ("role", "requested", "expected"),
    [
        # Authors and up get what they ask for, `publish` when absent.
        *(
            pytest.param(role, requested, expected, id=f"{role}-{label(requested)}-{expected}")
            for role in (Role.AUTHOR, Role.EDITOR, Role.ADMINISTRATOR)
            for requested, expected in (
                (None, "publish"),
                ("", "publish"),
                ("publish", "publish"),
                ("future", "future"),
                ("draft", "draft"),
                ("pending", "pending"),
                ("private", "private"),
                ("trash", "trash"),
            )
        ),
        # Contributors cannot publish: `pending` instead, `draft` when absent.
        pytest.param(Role.CONTRIBUTOR, None, "draft", id="contributor-absent-draft"),
        pytest.param(Role.CONTRIBUTOR, "", "draft", id="contributor-empty-draft"),
        pytest.param(Role.CONTRIBUTOR, "publish", "pending", id="contributor-publish-pending"),
        pytest.param(Role.CONTRIBUTOR, "future", "pending", id="contributor-future-pending"),
        pytest.param(Role.CONTRIBUTOR, "draft", "draft", id="contributor-draft-draft"),
        pytest.param(Role.CONTRIBUTOR, "pending", "pending", id="contributor-pending-pending"),
    ],
)
def test_scale_status(role: Role, requested: str | None, expected: str) -> None:
    assert scale_status(Principal(id=ME, login="x", role=role), requested) == expected


# ---- require and poster --------------------------------------------------------------


def require_status(role: str, allowed: bool) -> int:
    """200 when `require` lets the caller through, else the status of its ApiError."""
    try:
        require(user(role), allowed, WEBHOOKS)
    except ApiError as exc:
        return exc.status
    return 200


@pytest.mark.parametrize(
    ("role", "allowed", "expected"),
    [
        *(pytest.param(role, True, 200, id=f"{role}-allowed-200") for role in ROLES),
        pytest.param(ANONYMOUS, False, 401, id="anonymous-refused-401"),
        *(pytest.param(role.value, False, 403, id=f"{role}-refused-403") for role in Role),
    ],
)
def test_require(role: str, allowed: bool, expected: int) -> None:
    assert require_status(role, allowed) == expected


@pytest.mark.parametrize(
    ("role", "status"),
    [
        pytest.param(ANONYMOUS, 401, id="anonymous-401"),
        *(pytest.param(role.value, 403, id=f"{role}-403") for role in Role),
    ],
)
def test_require_refused(role: str, status: int) -> None:
    with pytest.raises(ApiError) as caught:
        require(user(role), False, WEBHOOKS)
    assert caught.value.status == status
    assert caught.value.code == "rest_forbidden"
    if status == 403:  # what the operation needs, and the caller's role
        assert caught.value.key == "forbidden_needs"
        assert caught.value.values["need"] == ("need_webhooks", {})
        assert caught.value.values["role"] == (f"role_{role}", {})


@pytest.mark.parametrize(
    ("role", "status"),
    [
        pytest.param(ANONYMOUS, 401, id="anonymous-401"),
        pytest.param(Role.SUBSCRIBER, 403, id="subscriber-403"),
    ],
)
def test_poster_refused(role: str, status: int) -> None:
    with pytest.raises(ApiError) as caught:
        poster(user(role))
    assert caught.value.status == status
    assert caught.value.code == "rest_forbidden"


@pytest.mark.parametrize(
    "role",
    [
        pytest.param(Role.CONTRIBUTOR, id="contributor"),
        pytest.param(Role.AUTHOR, id="author"),
        pytest.param(Role.EDITOR, id="editor"),
        pytest.param(Role.ADMINISTRATOR, id="administrator"),
    ],
)
def test_poster_returns_the_caller(role: Role) -> None:
    caller = Principal(id=ME, login="x", role=role)
    assert poster(caller) is caller


@pytest.mark.parametrize("requested", ["private", "trash"])
def test_a_contributor_cannot_skip_review(requested: str) -> None:
    """Private and trashed records are out of the editors' pending queue: refused, 403."""
    with pytest.raises(ApiError) as refused:
        scale_status(Principal(id=ME, login="x", role=Role.CONTRIBUTOR), requested)
    assert (refused.value.status, refused.value.code) == (403, "rest_cannot_publish")
