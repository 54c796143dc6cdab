"""Running the Alembic migrations from code (serve, migrate, tests)."""

from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    config.attributes["url"] = url
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Apply migrations; an advisory lock in env.py serialises concurrent callers."""
    command.upgrade(alembic_config(url), revision)


@lru_cache(maxsize=1)
def head_revisions() -> frozenset[str]:
    """The revisions the code's migrations end in (read from migrations/ once)."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(alembic_config("")).get_heads())
