"""JSON responses serialised with orjson (the hot path: no per-field Python work)."""

from collections.abc import Mapping
from typing import Any

import orjson
from starlette.responses import Response

JSON_MEDIA_TYPE = "application/json; charset=utf-8"


def dumps(content: Any) -> bytes:
    return orjson.dumps(content)


def json_response(
    content: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    return Response(dumps(content), status, dict(headers or {}), JSON_MEDIA_TYPE)
