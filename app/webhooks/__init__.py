"""Webhooks: pushing changes to other systems (docs/design.md, "Webhooks")."""
