"""`almanac users`: accounts, their application passwords and account passwords."""

import sys
from typing import Annotated

import typer

from app.cli.common import LOGIN_HELP, option, with_accounts
from app.core.rules.permissions import Role
from app.i18n import API_MESSAGES
from app.users.service import Accounts, Authored, UserExists

users = typer.Typer(
    name="users",
    help="Manage users.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

Login = Annotated[str, typer.Argument(help=LOGIN_HELP, metavar="LOGIN", show_default=False)]


@users.command(short_help="Create a user; prints an application password last.")
def add(
    login: Login,
    role: Annotated[
        Role | None,
        option(help="what the user may do (default: subscriber, who can only read)"),
    ] = None,
) -> None:
    """Create a user and print an application password as the last line. A login that
    exists already is left as it is: that is said on standard output, with exit code 1
    (`users password LOGIN` issues another password)."""
    chosen = role or Role.SUBSCRIBER
    try:
        user, password = with_accounts(lambda a: a.add(login, chosen))
    except UserExists as exists:
        # On standard output, where `PASSWORD=$(almanac users add ... | tail -n 1)` looks:
        # a re-run tutorial then shows why, instead of an empty password and a 401.
        print(f"{exists}: nothing changed, its passwords still work")
        print(f"for a new application password: almanac users password {exists.login}")
        raise typer.Exit(1) from None
    # The role's rights in the words a 403 uses (app/i18n/locale/api.pot).
    rights = API_MESSAGES.text(f"rights_{chosen.value}", "en")
    print(f"created user {user.login} (id {user.id}, role {user.role}): {rights}")
    if role is None:
        roles = ", ".join(r.value for r in Role)
        print(f"no --role given: {user.login} is a subscriber (roles: {roles})")
    print("application password (shown once):")
    print(password)


@users.command()
def password(login: Login) -> None:
    """Issue another application password (the others stay valid)."""
    secret = with_accounts(lambda a: a.new_password(login))
    print(f"new application password for {login} (shown once):")
    print(secret)


def _read_account_password() -> str | None:
    """Asked twice on a terminal; else one line of standard input (a script's pipe)."""
    if sys.stdin.isatty():
        import getpass

        first = getpass.getpass("account password: ")
        if getpass.getpass("again: ") != first:
            print("the two passwords differ: nothing changed", file=sys.stderr)
            return None
        return first
    return sys.stdin.readline().rstrip("\r\n")


@users.command("set-password", short_help="Set the account password the desk signs in with.")
def set_password(login: Login) -> None:
    """Set the user's account password, for the desk (/desk/): asked twice on a terminal,
    else read as one line from standard input. At least 8 characters; stored as an argon2
    hash. The API does not take it (it takes application passwords), and the user's desk
    sessions end."""
    secret = _read_account_password()
    if secret is None:
        raise typer.Exit(1)
    with_accounts(lambda a: a.set_account_password(login, secret))
    print(f"account password set for {login}: sign in at /desk/ (desk sessions ended)")


@users.command("list")
def list_users() -> None:
    """List users."""

    async def rows(accounts: Accounts) -> list[tuple[int, str, str]]:
        return [(u.id, u.login, u.role) for u in await accounts.list()]

    found = with_accounts(rows)
    width = max((len(login) for _, login, _ in found), default=5)
    print(f"{'ID':>6}  {'LOGIN':<{width}}  ROLE")
    for user_id, login, role in found:
        print(f"{user_id:>6}  {login:<{width}}  {role}")
    if not found:
        print("(no users: add one with `almanac users add LOGIN --role editor`)")


def _ask(login: str, authored: Authored) -> tuple[str | None, bool] | None:
    """On a terminal, what to do with the content (as `wp user delete` asks): a login to
    give it to, or delete it; None to change nothing."""
    print(f"{login} is the author of {authored}.")
    answer = typer.prompt(
        "give it to another user (their login), or type 'delete' to delete it, "
        "or leave empty to cancel",
        default="",
        show_default=False,
    ).strip()
    if not answer:
        return None
    if answer.lower() == "delete":
        return None, True
    return answer, False


@users.command(short_help="Delete a user; their content goes to another or is deleted.")
def remove(
    login: Login,
    reassign_to: Annotated[
        str | None,
        option(
            "--reassign-to",
            metavar="LOGIN",
            help="give the user's events, venues, organizers and media to this user "
            "(default: none: asked on a terminal, else refused if the user has any)",
        ),
    ] = None,
    delete_content: Annotated[
        bool,
        option(
            "--delete-content",
            help="delete the user's events, venues, organizers and media for good "
            "(`almanac media prune` then removes the image files) (default: off)",
        ),
    ] = False,
) -> None:
    """Delete a user. Content the user wrote is never left without an author: with
    --reassign-to LOGIN it goes to that user, with --delete-content it is deleted; without
    either, a terminal asks, and elsewhere a user with content is refused (exit code 1)."""
    if reassign_to is not None and delete_content:
        print("error: --reassign-to and --delete-content exclude each other", file=sys.stderr)
        raise typer.Exit(2)
    if reassign_to is None and not delete_content:
        authored = with_accounts(lambda a: a.authored(login))
        if authored.total:
            if not sys.stdin.isatty():
                print(
                    f"error: {login} is the author of {authored}: nothing removed; add "
                    f"--reassign-to LOGIN to give it to another user, or --delete-content "
                    "to delete it",
                    file=sys.stderr,
                )
                raise typer.Exit(1)
            choice = _ask(login, authored)
            if choice is None:
                print("nothing removed")
                raise typer.Exit(1)
            reassign_to, delete_content = choice
    done = with_accounts(lambda a: a.remove(login, reassign_to=reassign_to, delete=delete_content))
    if not done.total:
        print(f"removed user {login}")
    elif reassign_to is not None:
        print(f"removed user {login}; {done} now by {reassign_to}")
    else:
        print(f"removed user {login} and {done}")
