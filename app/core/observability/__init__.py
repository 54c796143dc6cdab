"""What the process tells operators: logs, metrics, request ids, requests in flight."""
