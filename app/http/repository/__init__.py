"""The SQL of the HTTP layer's own tables (the contract keeps SQLAlchemy in repositories)."""
