"""The HTTP edge: middleware, errors and their messages, languages, caching, ETags, request ids,
access log, URLs, the failed-login throttle."""
