"""What a run did, per kind, and how it is told: a progress bar per kind on a terminal
(rich), plain lines otherwise, and the summary at the end."""

import sys
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as Bars

KINDS = ("category", "tag", "venue", "organizer", "event")
PLURALS = {
    "category": "categories",
    "tag": "tags",
    "venue": "venues",
    "organizer": "organizers",
    "event": "events",
}


@dataclass(slots=True)
class KindCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    older: int = 0  # left alone: not modified since --since
    pruned: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (source ID, reason)
    # Records the source may hold that this run could not find: None when unknown.
    missing: int | None = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "older": self.older,
            "pruned": self.pruned,
            "skipped": len(self.skipped),
            "missing": self.missing,
        }


@dataclass(slots=True)
class ImageCounts:
    """What `--copy-images` did."""

    copied: int = 0
    reused: int = 0  # copied by an earlier run: linked again, not downloaded
    failed: list[tuple[str, str]] = field(default_factory=list)  # (URL, why)

    def lines(self) -> list[str]:
        lines = [
            f"  images: {self.copied} copied, {self.reused} copied before, "
            f"{len(self.failed)} failed"
        ]
        lines.extend(f"    image not copied: {url}: {why}" for url, why in self.failed)
        return lines


@dataclass(slots=True)
class Summary:
    source: str = ""
    dry_run: bool = False
    signed_in: bool = False
    kinds: dict[str, KindCounts] = field(default_factory=lambda: {k: KindCounts() for k in KINDS})
    failures: list[str] = field(default_factory=list)  # lists that could not be read
    notes: list[str] = field(default_factory=list)
    images: ImageCounts | None = None  # with --copy-images
    requests: int = 0
    seconds: float = 0.0

    def skip(self, kind: str, source_id: int, reason: str) -> None:
        self.kinds[kind].skipped.append((source_id, reason))

    @property
    def complete(self) -> bool:
        """Nothing skipped, nothing failed."""
        images_failed = self.images is not None and bool(self.images.failed)
        return not (self.failures or images_failed or any(c.skipped for c in self.kinds.values()))

    @property
    def exit_status(self) -> int:
        return 0 if self.complete else 1

    def lines(self) -> list[str]:
        verb = "would be" if self.dry_run else ""
        who = "signed in" if self.signed_in else "anonymously: published records only"
        head = f"import from {self.source}, {who}"
        head += " (dry run: nothing written)" if self.dry_run else ""
        lines = [head]
        for kind, counts in self.kinds.items():
            parts = [
                f"{counts.created} {verb + ' ' if verb else ''}created",
                f"{counts.updated} {verb + ' ' if verb else ''}updated",
                f"{counts.unchanged} unchanged",
            ]
            if counts.older:
                parts.append(f"{counts.older} not modified since --since")
            if counts.pruned:
                parts.append(f"{counts.pruned} {verb + ' ' if verb else ''}pruned (gone)")
            parts.append(f"{len(counts.skipped)} skipped")
            lines.append(f"  {PLURALS[kind]}: " + ", ".join(parts))
            for source_id, reason in counts.skipped:
                lines.append(f"    skipped {kind} {source_id}: {reason}")
            if counts.missing is None:
                lines.append(
                    f"    {PLURALS[kind]}: coverage not verified, the number missing is unknown"
                )
            elif counts.missing:
                lines.append(f"    {PLURALS[kind]}: {counts.missing} may be missing")
        if self.images is not None:
            lines.extend(self.images.lines())
        lines.extend(f"  failed: {failure}" for failure in self.failures)
        lines.extend(f"  note: {note}" for note in self.notes)
        lines.append(f"  {self.requests} requests in {self.seconds:.1f} s")
        return lines


class Progress(Protocol):
    def start(self, kind: str, total: int) -> None: ...
    def advance(self, kind: str) -> None: ...
    def finish(self, kind: str) -> None: ...
    def note(self, message: str) -> None: ...
    def close(self) -> None: ...


class PlainProgress:
    """Plain lines (not a terminal: logs, pipes): one at the start and end of each kind and
    one every `every` records."""

    def __init__(self, out: TextIO | None = None, every: int = 100) -> None:
        self.out = out or sys.stdout
        self.every = every
        self.done: dict[str, int] = {}
        self.totals: dict[str, int] = {}

    def _print(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def start(self, kind: str, total: int) -> None:
        self.done[kind], self.totals[kind] = 0, total
        self._print(f"{PLURALS[kind]}: {total} to go through")

    def advance(self, kind: str) -> None:
        self.done[kind] += 1
        if self.done[kind] % self.every == 0:
            self._print(f"{PLURALS[kind]}: {self.done[kind]}/{self.totals[kind]}")

    def finish(self, kind: str) -> None:
        self._print(f"{PLURALS[kind]}: done ({self.done.get(kind, 0)})")

    def note(self, message: str) -> None:
        self._print(message)

    def close(self) -> None:
        pass


def progress_bars(console: Console | None = None, *, disable: bool = False) -> Bars:
    """Rich's bars as the commands show them: a name, the bar, done of total, time taken."""
    return Bars(
        TextColumn("{task.description:<11}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=disable,
    )


class RichProgress:
    """A progress bar per kind, on a terminal."""

    def __init__(self, console: Console | None = None) -> None:
        self.bars = progress_bars(console)
        self.tasks: dict[str, Any] = {}
        self.bars.start()

    def start(self, kind: str, total: int) -> None:
        self.tasks[kind] = self.bars.add_task(PLURALS[kind], total=total)

    def advance(self, kind: str) -> None:
        self.bars.advance(self.tasks[kind])

    def finish(self, kind: str) -> None:
        task = self.tasks[kind]
        self.bars.update(task, total=self.bars.tasks[task].completed)

    def note(self, message: str) -> None:
        self.bars.console.print(message)

    def close(self) -> None:
        self.bars.stop()


def progress_for(out: TextIO) -> Progress:
    return RichProgress() if out.isatty() else PlainProgress(out)
