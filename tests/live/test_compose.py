"""docker-compose.yml is valid for Compose (`docker compose config`, or Debian 12's v1
`docker-compose config`, installed by `make system-deps`: there is no Docker engine to run it
on these machines)."""

import os
import shutil
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SECRETS = {"POSTGRES_PASSWORD": "s3cret", "APP_PASSWORD_PEPPER": "pepper"}


def _compose_command() -> list[str]:
    """docs/operations.md's `docker compose` (v2) where it runs, else `docker-compose` (Debian
    12 has only v1; `make system-deps` installs what the system offers)."""
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        return [docker, "compose"]
    executable = shutil.which("docker-compose")
    assert executable, "no Compose installed: run `make system-deps`"
    return [executable]


def compose(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`docker-compose ARGS` on docker-compose.yml, with only `env` set of its variables (an
    empty env file: a developer's .env must not leak in)."""
    env_file = tmp_path / "compose.env"
    env_file.write_text("")
    executable = _compose_command()
    base = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSE_", "DOCKER_"))}
    for name in (*SECRETS, "WEB_CONCURRENCY", "HTTP_PORT"):
        base.pop(name, None)
    return subprocess.run(
        [*executable, "--project-directory", str(ROOT), "-f", str(ROOT / "docker-compose.yml")]
        + ["--env-file", str(env_file), *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_compose_file_is_valid(tmp_path: Path) -> None:
    result = compose(tmp_path, "config", "-q", **SECRETS)
    assert result.returncode == 0, result.stderr
    services = compose(tmp_path, "config", "--services", **SECRETS)
    # The scraper is in the "monitoring" profile (Compose v1 lists it anyway, v2 does not).
    assert set(services.stdout.split()) - {"prometheus"} == {"app", "nginx", "postgres"}
    monitored = compose(tmp_path, "--profile", "monitoring", "config", "--services", **SECRETS)
    assert "prometheus" in monitored.stdout.split()


def test_compose_wires_the_services_together(tmp_path: Path) -> None:
    result = compose(tmp_path, "config", **SECRETS, WEB_CONCURRENCY="8", HTTP_PORT="9090")
    assert result.returncode == 0, result.stderr
    config = result.stdout
    assert "DATABASE_URL: postgresql://almanac:s3cret@postgres:5432/almanac" in config
    assert "WEB_CONCURRENCY: '8'" in config
    assert "published: 9090" in config
    # The app trusts X-Forwarded-* from nginx's fixed address only.
    assert "FORWARDED_ALLOW_IPS: 172.28.0.10" in config
    assert "ipv4_address: 172.28.0.10" in config
    assert "condition: service_healthy" in config
    assert "pg_isready" in config


def test_compose_refuses_to_start_without_secrets(tmp_path: Path) -> None:
    result = compose(tmp_path, "config", "-q")
    assert result.returncode != 0
    assert "set POSTGRES_PASSWORD" in result.stderr
    result = compose(tmp_path, "config", "-q", POSTGRES_PASSWORD="s3cret")
    assert result.returncode != 0
    assert "set APP_PASSWORD_PEPPER" in result.stderr


def test_compose_checks_readiness_logs_json_and_scrapes_metrics_inside(tmp_path: Path) -> None:
    result = compose(tmp_path, "--profile", "monitoring", "config", **SECRETS)
    assert result.returncode == 0, result.stderr
    config = result.stdout
    # nginx waits for the app's readiness (database reachable, schema current).
    assert "http://127.0.0.1:8000/readyz" in config
    assert "LOG_FORMAT: json" in config
    assert "METRICS_ENABLED: 'true'" in config or 'METRICS_ENABLED: "true"' in config
    # The scraper reads its targets from deploy/prometheus.yml: the app replicas, directly.
    assert "deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro" in config
    assert "127.0.0.1:9090:9090" in config
    scrape = (ROOT / "deploy" / "prometheus.yml").read_text()
    assert "names: [app]" in scrape
    assert "port: 8000" in scrape
    # The image's own health check is the same readiness probe.
    dockerfile = (ROOT / "Dockerfile").read_text()
    healthcheck = dockerfile[dockerfile.index("HEALTHCHECK") :].split("\n# ", 1)[0]
    assert "/readyz" in healthcheck
    assert "LOG_FORMAT=json" in dockerfile


def test_the_app_alone_reaches_out(tmp_path: Path) -> None:
    """Webhooks and `almanac import` in the container need a route out: the app is on a plain
    `egress` network besides the internal backend; the database stays on the backend alone
    (an `internal: true` network only, before, had no route: every delivery failed)."""
    result = compose(tmp_path, "config", **SECRETS)
    assert result.returncode == 0, result.stderr
    config = yaml.safe_load(result.stdout)
    networks = config["networks"]
    assert networks["backend"].get("internal") is True
    assert not networks["egress"].get("internal", False)

    def joined(service: str) -> set[str]:
        value = config["services"][service]["networks"]
        return set(value if isinstance(value, list) else value)

    assert joined("app") == {"backend", "egress"}
    assert joined("postgres") == {"backend"}
    assert "egress" not in joined("nginx")
    assert "ports" not in config["services"]["app"]
