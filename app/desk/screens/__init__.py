"""STUB (D4 local only)."""
