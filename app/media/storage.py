"""Where the files of the media library are kept, behind one small interface.

Names are chosen by the server (app/media/processing.py: a content hash, two hex digits of
it as a directory) and checked here again, so that no name can leave the storage's root.
A file is written under a temporary name and renamed into place: a name either holds its
whole file or nothing, whatever fails while writing.
"""

import os
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

# What processing names files: `ab/abcdef...[-WxH].ext` (lower-case hex, an accepted type).
NAME = re.compile(r"[0-9a-f]{2}/[0-9a-f]{32}(-[0-9]{1,5}x[0-9]{1,5})?\.(jpg|png|gif|webp|avif)")
TEMPORARY = ".partial"


def is_media_name(name: str) -> bool:
    return NAME.fullmatch(name) is not None


class MediaStorage(Protocol):
    def save(self, name: str, data: bytes) -> bool:
        """Store `data` as `name`; False when the name held it already (names are content
        hashes: the same name is the same bytes)."""

    def delete(self, name: str) -> None:
        """Remove `name`, if it is there."""

    def names(self, older_than: float = 0.0) -> Iterator[str]:
        """Every stored name, or those written more than `older_than` seconds ago."""

    def remove_leftovers(self, older_than: float) -> int:
        """Remove partial writes older than `older_than` seconds (a crash mid-write); how
        many there were."""

    def local_path(self, name: str) -> Path | None:
        """The file of `name`, when it is on this machine's disk and there; else None."""


class LocalStorage:
    """A directory ($ALMANAC_DATA_DIR/media by default), shared by every worker, and by
    nginx in the compose set-up."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, name: str) -> Path:
        if not is_media_name(name):
            raise ValueError(f"not a media file name: {name!r}")
        return self.root / name

    def save(self, name: str, data: bytes) -> bool:
        path = self._path(name)
        if path.is_file():
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.root / TEMPORARY / uuid.uuid4().hex
        temporary.parent.mkdir(parents=True, exist_ok=True)
        try:
            with temporary.open("wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            # Readable by the web server (nginx serves the same directory).
            temporary.chmod(0o644)
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
        return True

    def delete(self, name: str) -> None:
        self._path(name).unlink(missing_ok=True)

    def names(self, older_than: float = 0.0) -> Iterator[str]:
        if not self.root.is_dir():
            return
        before = time.time() - older_than
        for directory in sorted(self.root.iterdir()):
            if directory.name == TEMPORARY or not directory.is_dir():
                continue
            for path in sorted(directory.iterdir()):
                name = f"{directory.name}/{path.name}"
                if is_media_name(name) and path.is_file() and path.stat().st_mtime <= before:
                    yield name

    def remove_leftovers(self, older_than: float) -> int:
        partial = self.root / TEMPORARY
        if not partial.is_dir():
            return 0
        before = time.time() - older_than
        stale = [path for path in partial.iterdir() if path.stat().st_mtime <= before]
        for path in stale:
            path.unlink(missing_ok=True)
        return len(stale)

    def local_path(self, name: str) -> Path | None:
        if not is_media_name(name):
            return None
        path = self.root / name
        return path if path.is_file() else None
