# syntax=docker/dockerfile:1
# almanac: production image. Needs a PostgreSQL server (DATABASE_URL); see docker-compose.yml.

# Leaflet for the public pages' maps, from the npm registry at the version
# vendor/leaflet/package-lock.json pins (almanac serves it: no CDN); only leaflet.js,
# leaflet.css and its images go into the image (Makefile's map-assets does the same).
FROM node:20-slim AS map-assets
WORKDIR /build
COPY vendor/leaflet/package.json vendor/leaflet/package-lock.json ./
RUN npm ci --no-audit --no-fund \
 && mkdir /leaflet \
 && cp -R node_modules/leaflet/dist/leaflet.js node_modules/leaflet/dist/leaflet.css \
    node_modules/leaflet/dist/images /leaflet/

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
WORKDIR /app
# Runtime dependencies only (no dev extras), in their own layer so that code changes reuse it.
# pgserver (the embedded PostgreSQL for `make run`, 34 MB) is left out: a container always
# talks to a real server through DATABASE_URL.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; print('\n'.join(d for d in deps if not d.startswith('pgserver')))" > /tmp/requirements.txt \
 && /opt/venv/bin/pip install -r /tmp/requirements.txt
COPY alembic.ini ./
COPY migrations ./migrations
COPY app ./app
COPY --from=map-assets /leaflet ./app/pages/static/leaflet
# Installed in place (editable): app/migrate.py finds alembic.ini and migrations/ beside app/.
RUN /opt/venv/bin/pip install --no-deps -e . \
 && /opt/venv/bin/python -m app.geo.gazetteer \
 && /opt/venv/bin/python -m compileall -q /app/app /app/migrations

FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PORT=8000 \
    WEB_CONCURRENCY=2 \
    LOG_FORMAT=json
RUN useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent almanac \
 && mkdir -p /var/lib/almanac/media && chown -R almanac:almanac /var/lib/almanac
# The media library (docker-compose.yml mounts its volume here; a new volume takes this
# directory's owner, so the app can write to it).
ENV ALMANAC_DATA_DIR=/var/lib/almanac
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /app
USER almanac
EXPOSE 8000
# Readiness: the database answers within a second and the schema is the one this code expects
# (urlopen raises on the 503 otherwise). /healthz is the liveness probe (no database).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ['PORT']}/readyz\", timeout=4)"]
# `almanac serve` applies pending migrations (under an advisory lock), then runs uvicorn with
# WEB_CONCURRENCY worker processes. `exec`: the shell gives way, so SIGTERM reaches uvicorn,
# which stops accepting, finishes the requests in flight (up to 30 s) and exits.
CMD ["sh", "-c", "exec almanac serve --host 0.0.0.0 --port \"$PORT\" --workers \"$WEB_CONCURRENCY\""]
