"""The editor's desk: server-rendered screens at /desk/ (and /de/desk/, /sk/desk/) that run
the calendar from a browser through the API's own services (docs/architecture.md)."""
