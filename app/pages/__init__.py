"""The public calendar: server-rendered pages at the URLs every API response names
(`/events/`, `/event/<slug>/`, `/venue/<slug>/`, ...), in every language (docs/design.md,
Public pages)."""
