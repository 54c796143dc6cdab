"""A real nginx in front of a real `almanac serve`: every absolute URL the app emits is the
public one (scheme, host, port and path prefix of the proxy), and the shipped nginx config
(deploy/nginx.conf + deploy/almanac_proxy.conf) works as docker-compose.yml runs it.

nginx and openssl come from Debian's packages (`make system-deps` installs them).
"""

import asyncio
import io
import os
import random
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image

from tests.factories import API
from tests.live.harness import free_port, fresh_database, wait_until_listening, wait_until_serving

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
# Headers a client might send to make the app emit URLs of its choosing.
FORGED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "evil.example",
    "X-Forwarded-Prefix": "/evil",
    "X-Forwarded-For": "203.0.113.66",
    "Forwarded": "for=203.0.113.66;host=evil.example;proto=https",
}


def _nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    assert found, "nginx is not installed: run `make system-deps`"
    return found


def _private_dir(prefix: str) -> Path:
    # Not under pytest's tmp dir: that one is private to root, and nginx workers started by
    # root run as `nobody` and write their temp files here.
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    return path


def shipped_server(app_address: str, listen: str, media_volume: Path | None = None) -> str:
    """deploy/nginx.conf as docker-compose runs it, but for the Docker-only addresses: the
    upstream (`app:8000` through Docker's DNS), the listening port and the directory holding
    the media volume (`media_volume`/media)."""
    config = (DEPLOY / "nginx.conf").read_text()
    replacements = {
        r"^\s*resolver 127\.0\.0\.11\b[^;]*;": "",
        r"\bserver app:8000 resolve;": f"server {app_address};",
        r"\blisten 80;": f"listen {listen};",
        r"\broot /srv/almanac;": f"root {media_volume or '/srv/almanac'};",
    }
    for pattern, replacement in replacements.items():
        config, count = re.subn(pattern, replacement, config, flags=re.MULTILINE)
        assert count == 1, f"deploy/nginx.conf no longer has {pattern!r}"
    return config


def _prepare_nginx(http_block: str) -> Path:
    """A private prefix directory for nginx, with its main config and almanac_proxy.conf."""
    workdir = _private_dir("almanac-nginx-")
    shutil.copy(DEPLOY / "almanac_proxy.conf", workdir / "almanac_proxy.conf")
    temp_paths = "\n".join(
        f"    {kind}_temp_path {workdir / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (workdir / "nginx.conf").write_text(
        f"""
worker_processes 1;
pid {workdir / "nginx.pid"};
error_log {workdir / "error.log"} info;
events {{ worker_connections 128; }}
http {{
    access_log {workdir / "access.log"};
{temp_paths}
{http_block}
}}
"""
    )
    return workdir


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""


@asynccontextmanager
async def running_nginx(http_block: str) -> AsyncIterator[None]:
    """nginx in the foreground, unprivileged, everything it writes in a temp dir; stopped on exit.
    `http_block` is the content of `http {}`; it may `include almanac_proxy.conf`."""
    workdir = await asyncio.to_thread(_prepare_nginx, http_block)
    error_log = workdir / "error.log"
    process = await asyncio.create_subprocess_exec(
        *(_nginx(), "-p", str(workdir), "-c", str(workdir / "nginx.conf"), "-e", str(error_log)),
        *("-g", "daemon off;"),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        for port in re.findall(r"listen 127\.0\.0\.1:(\d+)", http_block):
            try:
                await wait_until_listening(int(port), process)
            except AssertionError as error:
                pytest.fail(f"nginx: {error}: {await asyncio.to_thread(_read, error_log)}")
        yield
    finally:
        if process.returncode is None:
            process.terminate()
        await asyncio.wait_for(process.wait(), timeout=30)
        await asyncio.to_thread(shutil.rmtree, workdir, True)


@dataclass(frozen=True)
class App:
    address: str  # host:port of uvicorn
    auth: tuple[str, str]  # an editor's login and application password


@pytest.fixture(scope="module")
def media_volume() -> Iterator[Path]:
    """What the compose set-up's `media` volume is: the app writes `media/` in it, nginx
    serves it."""
    directory = _private_dir("almanac-media-")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
async def app_server(database_url: str, media_volume: Path) -> AsyncIterator[App]:
    """`almanac serve` (2 workers) on a fresh database, trusting proxies on 127.0.0.1 only."""
    async with fresh_database(database_url, "almanac_nginx_test", migrated=True) as url:
        env = {k: v for k, v in os.environ.items() if k not in ("PUBLIC_SITE_URL", "ROOT_PATH")}
        env.update(DATABASE_URL=url, FORWARDED_ALLOW_IPS="127.0.0.1", LOG_LEVEL="warning")
        env.update(MEDIA_DIR=str(media_volume / "media"))
        port = free_port()
        output, name = tempfile.mkstemp(prefix="almanac-serve-", suffix=".log")
        log = Path(name)
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "2"),
            env=env,
            cwd=ROOT,
            stdout=output,
            stderr=output,
        )
        os.close(output)
        try:
            try:
                await wait_until_serving(f"http://127.0.0.1:{port}", process)
            except AssertionError as error:
                pytest.fail(f"almanac serve: {error}: {await asyncio.to_thread(_read, log)}")
            users = await asyncio.create_subprocess_exec(
                *(sys.executable, "-m", "app.cli", "users", "add", "proxyeditor"),
                *("--role", "editor"),
                env=env,
                cwd=ROOT,
                stdout=asyncio.subprocess.PIPE,
            )
            out, _ = await users.communicate()
            assert users.returncode == 0
            password = out.decode().strip().splitlines()[-1]
            yield App(address=f"127.0.0.1:{port}", auth=("proxyeditor", password))
        finally:
            if process.returncode is None:
                process.terminate()
            await asyncio.wait_for(process.wait(), timeout=60)
            await asyncio.to_thread(log.unlink, True)


@dataclass(frozen=True)
class Certificate:
    cert: Path
    key: Path

    def client_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))


@pytest.fixture(scope="module")
def certificate() -> Iterator[Certificate]:
    """A self-signed certificate for `localhost`, made by the openssl command."""
    directory = _private_dir("almanac-tls-")
    cert, key = directory / "cert.pem", directory / "key.pem"
    openssl = shutil.which("openssl")
    assert openssl, "openssl is not installed: run `make system-deps`"
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"),
            *("-nodes", "-days", "2", "-subj", "/CN=localhost"),
            *("-addext", "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    yield Certificate(cert=cert, key=key)
    shutil.rmtree(directory, ignore_errors=True)


@dataclass(frozen=True)
class Proxied:
    prefixed: str  # https://localhost:<port>/api: the API under a prefix, over TLS
    root: str  # http://localhost:<port>: deploy/nginx.conf as shipped, the API at the root
    app: App
    certificate: Certificate


@pytest.fixture(scope="module")
async def proxied(
    app_server: App, certificate: Certificate, media_volume: Path
) -> AsyncIterator[Proxied]:
    tls_port, plain_port = free_port(), free_port()
    http_block = f"""
{shipped_server(app_server.address, f"127.0.0.1:{plain_port}", media_volume)}

# The API under /api/ behind TLS, as the comment in deploy/nginx.conf shows.
server {{
    listen 127.0.0.1:{tls_port} ssl;
    server_name localhost;
    ssl_certificate {certificate.cert};
    ssl_certificate_key {certificate.key};
    location /api/ {{
        include almanac_proxy.conf;
        proxy_set_header X-Forwarded-Prefix /api;
        proxy_pass http://almanac/;
    }}
    # The same without stripping the prefix: the app removes it itself.
    location /unstripped/ {{
        include almanac_proxy.conf;
        proxy_set_header X-Forwarded-Prefix /unstripped;
        proxy_pass http://almanac;
    }}
}}
"""
    async with running_nginx(http_block):
        yield Proxied(
            prefixed=f"https://localhost:{tls_port}/api",
            root=f"http://localhost:{plain_port}",
            app=app_server,
            certificate=certificate,
        )


def absolute_urls(value: Any) -> Iterator[str]:
    """Every string in a JSON document that is an absolute http(s) URL."""
    if isinstance(value, dict):
        for item in value.values():
            yield from absolute_urls(item)
    elif isinstance(value, list):
        for item in value:
            yield from absolute_urls(item)
    elif isinstance(value, str) and re.match(r"https?://", value):
        yield value


def link_urls(response: httpx.Response) -> list[str]:
    return re.findall(r"<([^>]+)>", response.headers.get("Link", ""))


def assert_all_public(urls: list[str], public: str) -> None:
    assert urls
    stray = [url for url in urls if url != public and not url.startswith(f"{public}/")]
    assert stray == [], f"URLs not under {public}: {stray}"


async def test_every_url_is_public_behind_nginx_under_a_prefix(proxied: Proxied) -> None:
    public = proxied.prefixed
    async with httpx.AsyncClient(
        verify=proxied.certificate.client_context(), auth=proxied.app.auth
    ) as client:
        seen: list[str] = []

        category = await client.post(f"{public}{API}/categories", json={"name": "Open Air"})
        assert category.status_code == 201, category.text
        body = category.json()
        assert category.headers["Location"] == f"{public}{API}/categories/{body['id']}"
        assert body["urls"] == {
            "self": f"{public}{API}/categories/{body['id']}",
            "collection": f"{public}{API}/categories",
        }
        assert body["url"] == f"{public}/events/category/open-air/"
        seen += [category.headers["Location"], *absolute_urls(body)]

        tags = []
        for name in ("Jazz", "Folk", "Blues"):
            tag = await client.post(f"{public}{API}/tags", json={"name": name})
            assert tag.status_code == 201, tag.text
            assert tag.headers["Location"] == tag.json()["urls"]["self"]
            tags.append(tag.json())
        assert tags[0]["url"] == f"{public}/events/tag/jazz/"
        assert tags[0]["urls"]["self"] == f"{public}{API}/tags/{tags[0]['id']}"

        single = await client.get(f"{public}{API}/tags/{tags[1]['id']}")
        assert single.status_code == 200
        assert single.json()["urls"]["collection"] == f"{public}{API}/tags"
        seen += absolute_urls(single.json())

        listed = await client.get(
            f"{public}{API}/tags", params={"per_page": 1, "page": 2, "hide_empty": 0}
        )
        assert listed.status_code == 200, listed.text
        page = listed.json()
        assert page["total"] == 3
        assert page["rest_url"].startswith(f"{public}{API}/tags/?")
        assert "page=2" in page["rest_url"]
        assert page["next_rest_url"].startswith(f"{public}{API}/tags/?")
        assert "page=3" in page["next_rest_url"]
        assert page["previous_rest_url"].startswith(f"{public}{API}/tags/?")
        assert len(link_urls(listed)) == 5  # first, prev, next, last, and the API root
        seen += [*absolute_urls(page), *link_urls(listed)]

        # The links lead back through the proxy to the next page.
        following = await client.get(page["next_rest_url"])
        assert following.status_code == 200
        assert following.json()["tags"][0]["name"] == "Jazz"

        event = await client.post(
            f"{public}{API}/events",
            json={
                "title": "Proxy Night",
                "start_date": "2031-06-01 20:00:00",
                "end_date": "2031-06-01 23:00:00",
                "categories": [body["id"]],
                "tags": [tags[0]["id"]],
                "status": "publish",
            },
        )
        assert event.status_code == 201, event.text
        created = event.json()
        assert event.headers["Location"] == f"{public}{API}/events/{created['id']}"
        assert created["rest_url"] == f"{public}{API}/events/{created['id']}"
        assert created["url"] == f"{public}/event/proxy-night/"
        assert created["categories"][0]["urls"]["self"] == f"{public}{API}/categories/{body['id']}"
        seen += [event.headers["Location"], *absolute_urls(created)]

        events = await client.get(
            f"{public}{API}/events", params={"start_date": "2031-06-01", "per_page": 1}
        )
        assert events.status_code == 200, events.text
        assert events.json()["rest_url"].startswith(f"{public}{API}/events/?")
        seen += [*absolute_urls(events.json()), *link_urls(events)]

        german = await client.get(f"{public}/de{API}/categories", params={"hide_empty": 0})
        assert german.headers["Content-Language"] == "de"
        assert german.json()["rest_url"].startswith(f"{public}/de{API}/categories/?")
        assert german.json()["categories"][0]["urls"]["self"].startswith(f"{public}/de{API}/")
        seen += absolute_urls(german.json())

        index = await client.get(f"{public}/")
        assert index.json()["_links"]["help"][0]["href"] == f"{public}{API}/doc"
        seen += absolute_urls(index.json())
        namespace = await client.get(f"{public}{API}")
        assert namespace.json()["_links"]["up"][0]["href"] == f"{public}/"
        seen += absolute_urls(namespace.json())

        doc = await client.get(f"{public}{API}/doc")
        assert doc.status_code == 200
        assert doc.json()["servers"][0]["url"] == f"{public}{API}"

        unstripped = public.replace("/api", "/unstripped")
        tag = await client.get(f"{unstripped}/sk{API}/tags/{tags[0]['id']}")
        assert tag.status_code == 200, tag.text
        assert tag.headers["Content-Language"] == "sk"
        assert tag.json()["urls"]["self"] == f"{unstripped}/sk{API}/tags/{tags[0]['id']}"
        listed = await client.get(f"{unstripped}{API}/tags/", params={"hide_empty": 0})
        assert listed.json()["rest_url"].startswith(f"{unstripped}{API}/tags/?")

    assert_all_public(seen, public)


async def test_shipped_config_serves_the_root_and_overrides_forged_headers(
    proxied: Proxied,
) -> None:
    public = proxied.root
    async with httpx.AsyncClient(auth=proxied.app.auth) as client:
        # Whatever X-Forwarded-* the client sends, nginx replaces them with its own.
        listed = await client.get(f"{public}{API}/categories", headers=FORGED)
        assert listed.status_code == 200, listed.text
        assert listed.json()["rest_url"] == f"{public}{API}/categories/?page=1&per_page=9"
        created = await client.post(
            f"{public}{API}/categories", json={"name": "Rooted"}, headers=FORGED
        )
        assert created.status_code == 201, created.text
        assert created.headers["Location"] == f"{public}{API}/categories/{created.json()['id']}"
        assert created.json()["url"] == f"{public}/events/category/rooted/"
        assert_all_public(list(absolute_urls(created.json())), public)
        doc = await client.get(f"{public}{API}/doc", headers=FORGED)
        assert doc.json()["servers"][0]["url"] == f"{public}{API}"

        # Large JSON answers are compressed on the way out.
        compressed = await client.get(f"{public}{API}/doc", headers={"Accept-Encoding": "gzip"})
        assert compressed.headers["Content-Encoding"] == "gzip"

        # Bodies over MAX_BODY_BYTES (1 MiB): nginx refuses them in the API's envelope.
        oversized = await client.post(
            f"{public}{API}/categories",
            content=b'{"name": "' + b"x" * 2_000_000 + b'"}',
            headers={"Content-Type": "application/json"},
        )
        assert oversized.status_code == 413
        assert oversized.headers["Content-Type"] == "application/json; charset=utf-8"
        assert oversized.json() == {
            "code": "rest_payload_too_large",
            "message": "The request body is too large.",
            "data": {"status": 413},
        }
        # Up to the limit they reach the app (which ignores unknown parameters).
        large = await client.post(
            f"{public}{API}/categories", json={"name": "Large", "padding": "y" * 1_000_000}
        )
        assert large.status_code == 201, large.text
        assert large.json()["name"] == "Large"


async def test_shipped_config_takes_uploads_and_serves_their_files(proxied: Proxied) -> None:
    public = proxied.root
    # 2 MB: over the API's body limit, within the upload limit (nginx's and the app's).
    image = Image.frombytes("RGB", (820, 820), random.Random(7).randbytes(820 * 820 * 3))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=0)
    async with httpx.AsyncClient(auth=proxied.app.auth) as client:
        uploaded = await client.post(
            f"{public}{API}/media", files={"file": ("noise.png", out.getvalue(), "image/png")}
        )
        assert uploaded.status_code == 201, uploaded.text
        body = uploaded.json()
        assert body["url"].startswith(f"{public}/media/")
        for size in body["sizes"].values():
            # Served by nginx from the volume (nginx does not pass /media/ on to the app).
            served = await client.get(size["url"])
            assert served.status_code == 200
            assert served.headers["Content-Type"] == "image/png"
            assert served.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert served.headers["X-Content-Type-Options"] == "nosniff"
            assert "sandbox" in served.headers["Content-Security-Policy"]
            assert len(served.content) == size["filesize"]
        for missing in ("/media/ab/" + "ab" * 16 + ".png", "/media/.partial/x", "/media/"):
            answer = await client.get(f"{public}{missing}")
            assert answer.status_code == 404
            assert answer.json()["code"] == "rest_no_route"


async def test_shipped_config_answers_json_when_the_app_is_down() -> None:
    port, dead = free_port(), free_port()
    server = shipped_server(f"127.0.0.1:{dead}", f"127.0.0.1:{port}")
    async with running_nginx(server), httpx.AsyncClient() as client:
        response = await client.get(f"http://localhost:{port}{API}/events")
    assert response.status_code == 503
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    assert response.headers["Retry-After"] == "5"
    assert response.json() == {
        "code": "rest_unavailable",
        "message": "The service is temporarily unavailable. Please retry shortly.",
        "data": {"status": 503},
    }
