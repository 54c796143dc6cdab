"""Clients that nobody here wrote, unchanged, against a real `almanac serve` (one per module):
a Python client generated from /doc by openapi-python-client, node-wpapi through its
`discover()`, and Redocly's linter over /doc with its recommended rules
(docs/design.md#generated-clients). The node tools come from tests/clients/package-lock.json
(`npm ci`); their tests are skipped only where `node` itself is missing."""

import asyncio
import base64
import importlib
import json
import os
import shutil
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.factories import API
from tests.live.harness import add_user, almanac_server, fresh_database

NODE_TOOLS = Path(__file__).resolve().parents[1] / "clients"
# The warnings Redocly's recommended rules still give, each with its reason
# (docs/design.md#generated-clients).
ACCEPTED_LINT_WARNINGS = {"info-license"}  # almanac's document names no licence: none is chosen


@dataclass
class Site:
    root: str
    login: str
    password: str

    @property
    def api(self) -> str:
        return f"{self.root}{API}"


@pytest.fixture(scope="module")
async def site(database_url: str) -> AsyncIterator[Site]:
    async with fresh_database(database_url, "almanac_clients_test", migrated=True) as url:
        _, password = await add_user(url, "client", "editor")
        async with almanac_server(url) as root:
            yield Site(root, "client", password)


@pytest.fixture(scope="module")
async def doc(site: Site, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """/doc as a file, as a user would download it."""
    async with httpx.AsyncClient() as client:
        answer = await client.get(f"{site.api}/doc", headers={"Accept": "application/json"})
    assert answer.status_code == 200
    path = tmp_path_factory.mktemp("doc") / "almanac.json"
    path.write_bytes(answer.content)
    return path


async def _run(*args: str, cwd: Path | None = None, **env: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        *args,
        cwd=cwd,
        env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=300)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


# ---- openapi-python-client -------------------------------------------------------------


@pytest.fixture(scope="module")
async def generated(doc: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client openapi-python-client generates from /doc, imported; generating it fails on
    any warning (a skipped operation is one)."""
    target = tmp_path_factory.mktemp("generated")
    tools = Path(sys.executable).parent  # the generator formats its output with ruff
    code, out, err = await _run(
        str(tools / "openapi-python-client"),
        *("generate", "--path", str(doc), "--output-path", str(target / "almanac_client")),
        *("--meta", "none", "--fail-on-warning"),
        PATH=f"{tools}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    assert code == 0, out + err
    assert "warning" not in (out + err).lower(), out + err
    paths = json.loads(await asyncio.to_thread(doc.read_text))["paths"]
    operations = sum(len(item) for item in paths.values())
    modules = [
        p for p in (target / "almanac_client" / "api").glob("*/*.py") if p.stem != "__init__"
    ]
    assert len(modules) == operations
    sys.path.insert(0, str(target))
    try:
        yield importlib.import_module("almanac_client")
    finally:
        sys.path.remove(str(target))
        for name in [name for name in sys.modules if name.startswith("almanac_client")]:
            del sys.modules[name]


def _module(client: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{client.__name__}.{name}")


@pytest.fixture
def clients(generated: ModuleType, site: Site) -> Iterator[tuple[Any, Any, Any]]:
    """Generated clients: signed in with Bearer, signed in with Basic, anonymous."""
    basic_token = base64.b64encode(f"{site.login}:{site.password}".encode()).decode()
    with ExitStack() as open_clients:
        bearer = generated.AuthenticatedClient(base_url=site.api, token=site.password)
        basic = generated.AuthenticatedClient(base_url=site.api, token=basic_token, prefix="Basic")
        anonymous = generated.Client(base_url=site.api)
        yield tuple(open_clients.enter_context(c) for c in (bearer, basic, anonymous))


async def test_generated_python_client_does_the_whole_workflow(
    generated: ModuleType, site: Site, clients: tuple[Any, Any, Any]
) -> None:
    events = _module(generated, "api.events")
    models = _module(generated, "models")
    venues = _module(generated, "api.venues")
    for operation in ("get_events", "post_events", "get_events_by_id", "get_events_by_slug",
                      "patch_events_by_id", "put_events_by_slug", "delete_events_by_id"):  # fmt: skip
        importlib.import_module(f"{events.__name__}.{operation}")
    api = sys.modules[events.__name__]
    bearer, basic, anonymous = clients

    def call(operation: str, **arguments: Any) -> Any:
        """The operation's parsed answer, sync_detailed's status checked against `expect`."""
        expect = arguments.pop("expect", 200)
        answer = getattr(api, operation).sync_detailed(**arguments)
        assert answer.status_code == expect, (operation, answer.status_code, answer.content)
        return answer.parsed

    # Writes need credentials: the client parses the 401 as the error envelope.
    body = models.EventCreate(
        title="Generated", start_date="+2 days 19:00", end_date="+2 days 21:00"
    )
    denied = call("post_events", client=anonymous, body=body, expect=401)
    assert isinstance(denied, models.ErrorEnvelope)
    assert denied.code == "rest_forbidden"

    hall = importlib.import_module(f"{venues.__name__}.post_venues").sync_detailed(
        client=basic, body=models.VenueCreate(venue="Generated hall", city="Vienna")
    )
    assert hall.status_code == 201
    venue = hall.parsed
    assert isinstance(venue, models.Venue)
    body = models.EventCreate(
        title="Generated concert", start_date="+2 days 19:00", end_date="+2 days 21:00",
        venue=venue.id, categories=["Jazz"], featured=True, cost="10",
    )  # fmt: skip
    created = call("post_events", client=bearer, body=body, expect=201)
    assert isinstance(created, models.Event)
    assert (created.title, created.featured) == ("Generated concert", True)

    # Lists and reads, anonymously; booleans and lists typed as the generator made them.
    listed = call("get_events", client=anonymous, search="Generated", featured=True)
    assert isinstance(listed, models.EventList)
    assert [event.id for event in listed.events] == [created.id]
    assert call("get_events", client=anonymous, search="Generated", featured="no").events == []
    assert call("get_events_by_id", client=anonymous, id=created.id).title == "Generated concert"
    by_slug = call("get_events_by_slug", client=anonymous, slug=created.slug)
    assert by_slug.id == created.id

    changed = call(
        "patch_events_by_id", client=bearer, id=created.id, body=models.EventUpdate(title="Moved")
    )
    assert changed.title == "Moved"
    excerpt = call(
        "put_events_by_slug",
        client=basic,
        slug=created.slug,
        body=models.EventUpdate(excerpt="Short"),
    )
    assert (excerpt.title, excerpt.excerpt) == ("Moved", "Short")

    trashed = call("delete_events_by_id", client=bearer, id=created.id)
    assert trashed.status == "trash"
    deleted = call("delete_events_by_id", client=bearer, id=created.id, force=True)
    assert deleted.id == created.id
    gone = call("get_events_by_id", client=anonymous, id=created.id, expect=404)
    assert isinstance(gone, models.ErrorEnvelope)
    assert gone.code == "rest-event-not-found"


# ---- node: node-wpapi and Redocly's linter -----------------------------------------------


@pytest.fixture(scope="module")
async def node_tools() -> Path:
    """tests/clients/node_modules, installed by `npm ci` from the lockfile when missing or
    older than it."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed (`make system-deps` installs nodejs and npm)")
    npm = shutil.which("npm")
    assert npm, "npm is missing next to node: `make system-deps` installs it"
    installed = NODE_TOOLS / "node_modules" / ".package-lock.json"
    lockfile = NODE_TOOLS / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lockfile.stat().st_mtime:
        code, out, err = await _run(npm, "ci", "--no-audit", "--no-fund", cwd=NODE_TOOLS)
        assert code == 0, out + err
    return NODE_TOOLS


async def test_node_wpapi_discovers_the_api_and_does_the_whole_workflow(
    node_tools: Path, site: Site
) -> None:
    code, out, err = await _run(
        "node", "wpapi_workflow.js", f"{site.root}/", site.login, site.password, cwd=node_tools
    )
    assert code == 0, err
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["endpoint"] == f"{site.root}/"  # from the Link header of HEAD /
    assert {"events", "venues", "organizers", "categories", "tags"} <= set(seen["resources"])
    created = seen["created"]
    assert seen["listed"] == [created["id"]]
    assert seen["total"] == 1
    assert seen["read"] == ["Discovered concert", "Discovered concert"]
    assert seen["updated"] == "Discovered concert, moved"
    assert seen["excerpt"] == "Short"
    assert seen["trashed"] == "trash"
    assert seen["deleted"] == created["id"]
    assert seen["after"] == "rest-event-not-found"


async def test_redocly_recommended_rules_find_no_error(node_tools: Path, doc: Path) -> None:
    # Redocly's linter through its own package (tests/clients/lint_openapi.js), with the
    # rules and the report of `redocly lint --extends recommended --format json`.
    code, out, err = await _run("node", "lint_openapi.js", str(doc), "recommended", cwd=node_tools)
    report = json.loads(out)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert not errors, errors
    assert code == 0, err
    assert {p["ruleId"] for p in report["problems"]} <= ACCEPTED_LINT_WARNINGS
