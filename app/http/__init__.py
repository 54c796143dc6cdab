# The `{name:id}` path parameter (app/http/ids.py), registered before any router uses it.
from app.http import ids as _ids  # noqa: F401
