"""What every package shares, grouped by concern: web/ (the HTTP edge), caching/,
observability/, security/, database/, asgi/ (the pipeline's frame), the settings and rules/
(domain rules). See docs/architecture.md#packages."""
