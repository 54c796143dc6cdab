"""Running the Alembic migrations from code (serve, migrate, tests).

Alembic is imported where it is used: it brings Mako and Pygments (about a tenth of a
second of a process's start), which the commands that do not migrate (`users`, `seed`,
`import`, ...) would otherwise pay for every time they run.
"""

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alembic.config import Config

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def alembic_config(url: str) -> "Config":
    from alembic.config import Config

    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    config.attributes["url"] = url
    return config


def head_revision() -> str:
    """`<id> (<message>)` of the newest migration: what `upgrade` brings a database to."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config(""))
    current = script.get_current_head()
    head = script.get_revision(current) if current else None
    if head is None:
        return "none"
    message = (head.doc or "").strip().splitlines()[0] if head.doc else ""
    return f"{head.revision} ({message})" if message else head.revision


def upgrade(url: str, revision: str = "head") -> None:
    """Apply migrations; an advisory lock in env.py serialises concurrent callers."""
    from alembic import command

    command.upgrade(alembic_config(url), revision)


@lru_cache(maxsize=1)
def head_revisions() -> frozenset[str]:
    """The revisions the code's migrations end in (read from migrations/ once)."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(alembic_config("")).get_heads())
