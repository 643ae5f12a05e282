# Image for web, worker and beat (docker-compose.yml). Same commands as the Makefile.
FROM node:20-bookworm-slim AS static
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund && mkdir -p static/vendor && npm run -s build

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=config.settings.production \
    STATIC_ROOT=/app/staticfiles
WORKDIR /app
COPY requirements.txt ./
# python-ldap (LDAP login) builds from source: compiler and headers for the build, only the libraries kept.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libldap2-dev libsasl2-dev \
    && pip install --no-cache-dir -r requirements.txt \
    && apt-get purge -y --auto-remove gcc libldap2-dev libsasl2-dev \
    && apt-get install -y --no-install-recommends libldap-2.5-0 libsasl2-2 \
    && rm -rf /var/lib/apt/lists/*
COPY . .
COPY --from=static /src/static/vendor ./static/vendor
RUN SECRET_KEY=build TIERSCOPE_FERNET_KEY=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= \
    DATABASE_URL=postgres://x@localhost/x REDIS_URL=redis://localhost python manage.py collectstatic --noinput
RUN useradd --system --home /app tierscope
USER tierscope
EXPOSE 8000
# The web server as docker-compose.yml runs it (docs/performance.md, "Web server workers"): gthread workers so a
# slow export or upload holds one thread, not a whole worker; compose's web service adds migrate and bootstrap.
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--worker-class", "gthread", "--threads", "4", "--keep-alive", "0", "--access-logfile", "-", "--error-logfile", "-"]
