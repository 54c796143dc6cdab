"""Every query of tickets (tickets.py) and the attendee writes an RSVP makes (attendees.py)."""
