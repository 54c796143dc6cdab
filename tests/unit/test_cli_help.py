"""`almanac --help` and every command's help, rendered in-process by Typer's runner (the
same parser and text the console script prints; tests/live/test_cli.py starts the real
command for what needs a process)."""

import re

from typer.testing import CliRunner

from app.cli import app

COMMANDS = [
    ("serve",),
    ("migrate",),
    ("users",),
    ("users", "add"),
    ("users", "password"),
    ("users", "set-password"),
    ("users", "list"),
    ("users", "remove"),
    ("seed",),
    ("maintain",),
    ("media",),
    ("media", "prune"),
    ("import",),
    ("geocode",),
    ("attendees",),
    ("attendees", "export"),
    ("attendees", "forget"),
]


def _help(*command: str) -> str:
    """`almanac COMMAND --help` in a 100-column terminal."""
    result = CliRunner().invoke(
        app, [*command, "--help"], prog_name="almanac", env={"COLUMNS": "100"}
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_has_help_and_every_option_its_default() -> None:
    top = _help()
    for name in ("serve", "migrate", "users", "seed", "maintain", "media", "import", "geocode"):
        assert f"  {name} " in top, top
    for command in COMMANDS:
        text = _help(*command)
        assert text.startswith(f"Usage: almanac {' '.join(command)} "), text
        description, _, options = text.partition("\nOptions:\n")
        assert len(description.split("\n\n")[1].strip()) > 10, text  # says what it does
        # Every option but --help says its default in words.
        entries = re.split(r"\n  (?=-)", "\n" + options)[1:]
        for entry in entries:
            if not entry.startswith("-h, --help"):
                assert "(default: " in " ".join(entry.split()), (command, entry)


def test_the_options_a_person_reaches_for_say_what_they_do() -> None:
    serve = " ".join(_help("serve").split())
    assert "--port NUMBER TCP port to listen on (default: 8000)" in serve
    assert (
        "--host ADDRESS address to listen on; 0.0.0.0 for every interface (default: 127.0.0.1)"
        in serve
    )
    remove = " ".join(_help("users", "remove").split())
    assert "--reassign-to LOGIN" in remove
    assert "--delete-content" in remove
    assert "almanac users remove [OPTIONS] {LOGIN}" in remove


def test_a_group_without_a_command_lists_its_commands() -> None:
    result = CliRunner().invoke(app, ["users"], prog_name="almanac")
    assert "set-password" in result.output
    assert "remove" in result.output
