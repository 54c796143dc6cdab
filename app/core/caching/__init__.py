"""Caching: the response and caller caches with their invalidation, ETags and conditional
requests."""
