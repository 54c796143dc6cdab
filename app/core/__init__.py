"""What every package shares, in three kinds: `infra/` (infrastructure), `edge/` (the HTTP
edge) and `rules/` (domain rules). See docs/architecture.md#packages."""
