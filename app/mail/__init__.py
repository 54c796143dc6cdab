"""Mail: the outbox in PostgreSQL, its worker over SMTP, and how a message is made."""
