"""Tickets and RSVP: tickets on events, attendees, check-in (docs/design.md#tickets-and-rsvp)."""
