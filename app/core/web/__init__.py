"""The HTTP edge: its steps (trusted proxies, headers, HEAD, the body limit, the access log),
the errors' answers, JSON responses, URLs, what a door could not read."""
