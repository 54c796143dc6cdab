"""Attendees, for those who need them: the lists, check-in, the CSV export, a message to all, and forgetting a person (docs/design.md#tickets-and-rsvp)."""
