"""The desk's tickets and attendees (issue 45), in one folder: an event's tickets
(tickets.py, their form in form.py), its attendees with their totals, CSV, check-in and a
message to all (attendees.py), the check-in a ticket's QR code opens (check_in.py), and the
outbox of messages waiting, sent or failed (outbox.py)."""
