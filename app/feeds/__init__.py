"""Calendar feeds: iCalendar (RFC 5545) for any event list and every event."""
