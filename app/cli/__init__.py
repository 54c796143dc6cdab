"""The `almanac` command: serve, migrate, users, seed, maintain, media, import, geocode,
attendees.

One module per command or group of commands, on Typer; `main` runs it (the console script
and `python -m app.cli`)."""

import sys

import typer

from app.cli.attendees import attendees
from app.cli.geocode import geocode
from app.cli.importing import import_command
from app.cli.media import media
from app.cli.seed import maintain, seed_command
from app.cli.serve import migrate, serve
from app.cli.users import users
from app.users.service import UserError

app = typer.Typer(
    name="almanac",
    help="The almanac events calendar: serve, migrate, users, seed, maintain, media, import, "
    "geocode, attendees.",
    no_args_is_help=True,
    add_completion=False,
    # Plain help, as argparse wrote it: no boxes to read around in a terminal or a screen
    # reader, and text that greps.
    rich_markup_mode=None,
    # A failing command's traceback as Python prints it (Rich's, with locals, is longer).
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.command(short_help="Apply migrations, then serve HTTP.")(serve)
app.command(short_help="Apply database migrations.")(migrate)
app.add_typer(users)
app.command("seed", short_help="Append realistic generated events, venues, organizers and terms.")(
    seed_command
)
app.command(
    short_help="Store the dates of recurring events up to the horizon (the app does it daily)."
)(maintain)
app.add_typer(media)
app.command("import", short_help="Bring a The Events Calendar site over, through its REST API.")(
    import_command
)
app.command(short_help="Place the venues that have no coordinates (city, then address).")(geocode)
app.add_typer(attendees)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the exit code (2 for a usage error, 1 for a refused one)."""
    try:
        app(args=argv, prog_name="almanac")
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
