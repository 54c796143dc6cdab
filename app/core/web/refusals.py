"""What a door could not read in a request, kept for the service to refuse in its turn.

A service checks the caller and the record before the parameters (an anonymous write is a
401 whatever it sends, docs/design.md#errors), yet the API's doors read the parameters into
typed inputs before they call it. So a door does not raise what it cannot read: it keeps
the reason in the input (`Refusals` for the whole request, `Refused` for one value whose
place among the service's own checks decides where its note stands in the 400), and the
service raises it where it reads that input."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from app.core.errors import ApiError, InvalidParams, Note, Problems


@dataclass(frozen=True)
class Refused:
    """A value sent that names nothing the service can take: the note of its 400."""

    note: Note


@dataclass(frozen=True)
class Refusals:
    """The notes of the parameters a door refused (in the order its model names them), or
    the error of a body it could not read at all."""

    notes: Mapping[str, Note] = field(default_factory=dict)
    error: ApiError | None = None

    def raise_any(self) -> None:
        if self.error is not None:
            raise self.error
        if self.notes:
            raise InvalidParams(dict(self.notes))

    def into(self, problems: Problems) -> None:
        """Add the notes to a service's `problems` (a body not read at all: raised)."""
        if self.error is not None:
            raise self.error
        for name, why in self.notes.items():
            problems.add(name, why)

    def __contains__(self, name: str) -> bool:
        return name in self.notes


NOTHING_REFUSED = Refusals()
