"""Property-based fuzzing of every route and method from the service's own OpenAPI document
(schemathesis), against a real `almanac serve` on a fresh database: no request, however odd,
gets a 5xx, and every response conforms to what /doc documents (status code, content type,
headers, body schema). Once as an anonymous caller, once as an editor.

The run in `make test` is bounded and deterministic; `make fuzz` runs a longer, randomised one
(ALMANAC_FUZZ_LONG, ALMANAC_FUZZ_EXAMPLES, ALMANAC_FUZZ_SEED). Findings are pinned in
test_fuzz_regressions.py.
"""

import asyncio
import io
import os
import random
import re
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from PIL import Image

from tests.factories import API
from tests.live.harness import free_port, fresh_database, wait_until_serving

CHECKS = (
    "not_a_server_error",
    "response_schema_conformance",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
)
# Per operation and phase. The coverage phase (boundary and invalid values of every
# parameter, unexpected methods) does not depend on it and takes most of the time.
EXAMPLES = int(os.environ.get("ALMANAC_FUZZ_EXAMPLES", "3"))
# Unset: derandomised, the same run every time; "random": a new seed, shown on failure.
SEED = os.environ.get("ALMANAC_FUZZ_SEED")
if SEED == "random":
    SEED = str(random.randrange(2**32))
LONG = bool(os.environ.get("ALMANAC_FUZZ_LONG"))
RUN_TIMEOUT = float(os.environ.get("ALMANAC_FUZZ_TIMEOUT", "1800"))


@dataclass
class Server:
    base: str
    login: str
    password: str
    log: Path


async def _run(
    *args: str, env: dict[str, str], seconds: float = 120, cwd: str | None = None
) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *args, env=env, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    try:
        out, _ = await asyncio.wait_for(process.communicate(), seconds)
    except TimeoutError:
        process.kill()
        out, _ = await process.communicate()
    return process.returncode if process.returncode is not None else -1, out.decode()


async def _seed(base: str, auth: tuple[str, str]) -> None:
    """A little of everything, so that ID and slug routes sometimes find a real record
    (schemathesis also reuses IDs and slugs it sees in responses)."""
    async with httpx.AsyncClient(base_url=f"{base}{API}", auth=auth, timeout=30) as client:

        async def create(path: str, body: dict[str, object]) -> dict[str, object]:
            response = await client.post(path, json=body)
            assert response.status_code == 201, response.text
            created: dict[str, object] = response.json()
            return created

        category = await create("/categories", {"name": "Music"})
        await create("/categories", {"name": "Jazz", "parent": category["id"]})
        await create("/tags", {"name": "outdoor"})
        venue = await create("/venues", {"venue": "Hall", "city": "Vienna", "show_map": True})
        organizer = await create("/organizers", {"organizer": "Org", "email": "org@example.org"})
        event = {"start_date": "tomorrow 18:00", "end_date": "tomorrow 20:00", "cost": "5 – 10 €"}
        await create(
            "/events",
            {
                **event,
                "title": "Concert",
                "venue": venue["id"],
                "organizer": [organizer["id"]],
                "categories": [category["id"]],
                "tags": ["outdoor"],
                "image": "https://images.example.org/concert.jpg",
                "featured": True,
            },
        )
        await create("/events", {**event, "title": "Protected", "password": "secret"})
        await create("/events", {**event, "title": "Draft", "status": "draft", "all_day": True})
        await create("/venues", {"venue": "Draft hall", "status": "draft"})
        image = io.BytesIO()
        Image.new("RGB", (200, 160), (200, 40, 40)).save(image, format="PNG")
        uploaded = await client.post("/media", files={"file": ("red.png", image.getvalue())})
        assert uploaded.status_code == 201, uploaded.text
        await create("/venues", {"venue": "Pictured hall", "image": uploaded.json()["id"]})


@pytest.fixture(scope="module")
async def server(database_url: str) -> AsyncIterator[Server]:
    async with fresh_database(database_url, "almanac_fuzz_test", migrated=True) as url:
        media = tempfile.mkdtemp(prefix="almanac-fuzz-media-")
        env = {**os.environ, "DATABASE_URL": url, "LOG_LEVEL": "warning", "MEDIA_DIR": media}
        port = free_port()
        sink, name = tempfile.mkstemp(prefix="almanac-fuzz-", suffix=".log")
        log = Path(name)
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "1"),
            env=env,
            stdout=sink,
            stderr=sink,
        )
        os.close(sink)
        base = f"http://127.0.0.1:{port}"
        try:
            await wait_until_serving(base, process)
            # After the server has migrated the database.
            code, out = await _run(
                *(sys.executable, "-m", "app.cli", "users", "add", "fuzzer", "--role", "editor"),
                env=env,
            )
            assert code == 0, out
            password = out.strip().splitlines()[-1]
            await _seed(base, ("fuzzer", password))
            yield Server(base, "fuzzer", password, log)
        finally:
            if process.returncode is None:
                process.terminate()
            await asyncio.wait_for(process.wait(), timeout=30)
            await asyncio.to_thread(log.unlink, missing_ok=True)
            await asyncio.to_thread(shutil.rmtree, media, True)


def _schemathesis(
    server: Server, phases: str, mode: str, auth: bool, operations: tuple[str, ...]
) -> list[str]:
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "run", f"{server.base}{API}/doc"),
        *("--checks", ",".join(CHECKS)),
        *("--phases", phases),
        *("--mode", mode),
        *("--max-examples", str(EXAMPLES)),
        *("--workers", "1", "--no-color", "--continue-on-failure", "--suppress-health-check=all"),
        *("--request-timeout", "30", "--output-truncate", "true"),
    ]
    if SEED is None:
        command.append("--generation-deterministic")
    else:
        command += ["--seed", SEED, "--generation-database", "none"]
    if auth:
        command += ["--auth", f"{server.login}:{server.password}"]
    command += operations  # the options that narrow the operations tried
    return command


def _report(output: str, log: Path) -> str:
    """The failures section of schemathesis's output and the end of the server's log."""
    start = output.find("= FAILURES =")
    failures = output[start:] if start >= 0 else output[-4000:]
    server_log = log.read_text(errors="replace")
    return f"{failures[:20000]}\n\nserver log:\n{server_log[-8000:]}"


# The updates (POST, PUT and PATCH, by ID and by slug: operation IDs as /doc names them,
# `patch_events_by_id`, `post_venues_by_slug`, ...; not the actions under an ID such as
# `post_webhooks_by_id_rotate_secret`) are left out of the bounded coverage run. In negative
# mode schemathesis sends every invalid body with an invalid ID or slug too (`/events/0.5`,
# a 60-character slug), so the router answers 404 before a body is read: about 2,000
# requests, two fifths of the run, that tried nothing but that 404. Invalid IDs and slugs are
# tried on the reads and deletes of the same paths, the updates in the fuzzing and stateful
# runs (with the IDs those find), and the updates' validation by the API tests.
UPDATES = r"^(post|put|patch)_\w+_by_(id|slug)$"
NO_UPDATES = ("--exclude-operation-id-regex", UPDATES)
# Anonymous writes are refused before they are read (docs/design.md#errors): the anonymous
# caller's run reads, and the editor's runs write (tests/api/test_auth.py covers the 401s).
READS = ("--include-method", "GET")


@pytest.mark.parametrize(
    ("caller", "phases", "mode", "operations"),
    [
        pytest.param("anonymous", "fuzzing", "all", READS, id="anonymous"),
        pytest.param("editor", "fuzzing,stateful", "all", (), id="editor"),
        # Boundary and invalid values of every parameter, and unexpected methods: most of the
        # time. Once, as the editor: anonymous writes are refused before they are read
        # (docs/design.md#errors), and anonymous reads run the same code. Bounded to the invalid values
        # (negative mode); the combinations of valid ones, about as many again, are left to
        # the long run (`make fuzz`) and to the fuzzing phase above.
        pytest.param("editor", "coverage", "negative", NO_UPDATES, id="editor-coverage"),
    ],
)
async def test_fuzz_against_the_openapi_document(
    server: Server, caller: str, phases: str, mode: str, operations: tuple[str, ...]
) -> None:
    if LONG:  # make fuzz: every phase, every operation, both callers
        if phases == "coverage":
            pytest.skip("the long run covers it in the runs of both callers")
        phases, mode, operations = "coverage,fuzzing,stateful", "all", ()
    command = _schemathesis(server, phases, mode, auth=caller == "editor", operations=operations)
    # In a scratch directory: no schemathesis.toml is picked up, nothing is left behind.
    with tempfile.TemporaryDirectory() as scratch:
        code, output = await _run(*command, env=dict(os.environ), seconds=RUN_TIMEOUT, cwd=scratch)
    summary = re.search(r"Test cases:\s*\n\s*(.+)", output)
    assert code == 0, f"{caller}, seed {SEED}: {_report(output, server.log)}"
    assert summary is not None, output[-3000:]
    assert " passed" in summary.group(1), output[-3000:]
    # Every operation selected was tried (all of them, unless some are filtered out).
    selected = re.search(r"Selected:\s*(\d+)/(\d+)\s*\n\s*Tested:\s*(\d+)", output)
    assert selected is not None, output[-3000:]
    chosen, everything, tested = map(int, selected.groups())
    assert tested == chosen, output[-3000:]
    if not operations:
        assert chosen == everything, output[-3000:]
    else:  # the filter names operations that exist (a renamed operation would undo it)
        assert chosen < everything, output[-3000:]
