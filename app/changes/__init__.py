"""The changes feed: what changed since a token, per caller (GET /changes)."""
