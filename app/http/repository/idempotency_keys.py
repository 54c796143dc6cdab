"""The statements of `Idempotency-Key` (app/http/idempotency.py) on `idempotency_keys`."""

from sqlalchemy import text

# Claims the key: a new row, or a row older than the lifetime taken over. No row back: the
# key is held (after waiting for its transaction, if it was in flight).
CLAIM_SQL = text(
    """
    INSERT INTO idempotency_keys AS k (user_id, key, request_digest, status, body)
    VALUES (:user_id, :key, :digest, 0, '')
    ON CONFLICT (user_id, key) DO UPDATE
        SET request_digest = excluded.request_digest, status = 0, body = '', location = NULL,
            created_at = now()
        WHERE k.created_at < now() - CAST(:lifetime AS interval)
    RETURNING true
    """
)
HELD_SQL = text(
    "SELECT request_digest, status, body, location FROM idempotency_keys "
    "WHERE user_id = :user_id AND key = :key"
)
STORE_SQL = text(
    "UPDATE idempotency_keys SET status = :status, body = :body, location = :location "
    "WHERE user_id = :user_id AND key = :key"
)
PRUNE_SQL = text(
    "DELETE FROM idempotency_keys WHERE created_at < now() - CAST(:lifetime AS interval)"
)
