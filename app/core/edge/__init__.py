"""The HTTP edge: the pipeline and its steps, errors and their messages, languages, caching,
ETags, request ids, access log, URLs, the failed-login throttle."""
