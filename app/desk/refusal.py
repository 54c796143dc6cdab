"""A service's refusal as a desk form shows it: one type for every form (the event editor's
and the records', terms' and media screens'), built from the API's own error in the desk's
language."""

from dataclasses import dataclass, field


@dataclass
class Refusal:
    """A service's error on a form: its message and the message of each named field, in the
    desk's language (the API's own texts, so the desk says what the API says)."""

    status: int
    code: str
    message: str
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def conflict(self) -> bool:
        """Somebody else saved the record since the form was read (412)."""
        return self.status == 412

    def on(self, name: str) -> list[str]:
        """The messages of field `name` (a list, as the form macros take them)."""
        return [self.fields[name]] if name in self.fields else []
