"""A streaming standby of a private embedded PostgreSQL (tests/live.py `private_postgres`),
built from the binaries of the pgserver wheel: `pg_basebackup -R` (which writes
`standby.signal` and `primary_conninfo`), an apply delay (`recovery_min_apply_delay`), and
`pg_ctl` to stop, start and reload it."""

import os
import pwd
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url


class Standby:
    def __init__(self, primary: Any, pgdata: Path) -> None:
        self.primary = primary
        self.pgdata = pgdata
        self.user = primary.system_user  # the embedded server's own user when run as root

    def _run(self, command: str, args: list[str], pgdata: Path | None = None) -> str:
        from pgserver import _commands

        run = getattr(_commands, command)
        return str(run(args, pgdata=pgdata, user=self.user, timeout=60))

    def _ctl(self, *args: str) -> None:
        self._run("pg_ctl", ["-w", *args], self.pgdata)

    def create(self, apply_delay: str) -> None:
        socket_dir = make_url(self.primary.get_uri()).query["host"]
        self._run(
            "pg_basebackup",
            ["-D", str(self.pgdata), "-h", str(socket_dir), "-U", "postgres", "-R", "-X", "stream"],
        )
        # The primary keeps its socket, log and pgserver's bookkeeping in its data directory:
        # copied along, they are the primary's, not the standby's.
        for copied in (".s.PGSQL.5432.lock", "log", ".handle_pids.json"):
            (self.pgdata / copied).unlink(missing_ok=True)
        with (self.pgdata / "postgresql.auto.conf").open("a") as conf:
            # Only on the unix socket in its own directory (no port shared with the primary);
            # read-only queries never cancelled by the replay of a vacuum.
            conf.write(
                f"listen_addresses = ''\nunix_socket_directories = '{self.pgdata}'\n"
                f"recovery_min_apply_delay = '{apply_delay}'\nhot_standby_feedback = on\n"
            )

    def start(self) -> None:
        self._ctl("-l", str(self.pgdata / "log"), "start")

    def stop(self) -> None:
        self._ctl("-m", "fast", "stop")

    def set_apply_delay(self, delay: str) -> None:
        """A new apply delay, read by the running standby (a reload, no restart)."""
        conf = self.pgdata / "postgresql.auto.conf"
        lines = [
            line
            for line in conf.read_text().splitlines()
            if not line.startswith("recovery_min_apply_delay")
        ]
        conf.write_text("\n".join([*lines, f"recovery_min_apply_delay = '{delay}'", ""]))
        self._ctl("reload")

    def url(self, database: str) -> str:
        return f"postgresql://postgres:@/{database}?host={self.pgdata}"


@contextmanager
def streaming_standby(primary: Any, apply_delay: str) -> Iterator[Standby]:
    """A running standby of `primary`, `apply_delay` behind it; stopped and removed after."""
    pgdata = Path(str(primary.pgdata)).parent / "standby"
    shutil.rmtree(pgdata, ignore_errors=True)
    pgdata.mkdir(mode=0o700)
    standby = Standby(primary, pgdata)
    if standby.user is not None:
        account = pwd.getpwnam(standby.user)
        os.chown(pgdata, account.pw_uid, account.pw_gid)
    standby.create(apply_delay)
    standby.start()
    try:
        yield standby
    finally:
        if (pgdata / "postmaster.pid").exists():
            standby.stop()
        shutil.rmtree(pgdata, ignore_errors=True)
