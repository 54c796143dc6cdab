"""Operations: liveness, readiness and metrics, outside the API's namespace."""
