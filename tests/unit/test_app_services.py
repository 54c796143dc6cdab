"""The app's long-lived services are one typed object (app/core/app_services.py): read
through its accessors, never as untyped attributes of `app.state`."""

import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
ACCESSORS = APP / "core" / "app_services.py"
# `app.state`, `request.app.state`, `getattr(app.state, ...)`: the app's, not a request's.
APP_STATE = re.compile(r"\bapp\.state\b")


def test_only_the_accessors_read_the_apps_state() -> None:
    readers = [
        f"{path.relative_to(APP.parent)}:{number}"
        for path in sorted(APP.rglob("*.py"))
        if path != ACCESSORS
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if APP_STATE.search(line.split("#", 1)[0])
    ]
    assert readers == []
