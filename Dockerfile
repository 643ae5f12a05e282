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
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
COPY --from=static /src/static/vendor ./static/vendor
RUN SECRET_KEY=build TIERSCOPE_FERNET_KEY=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= \
    DATABASE_URL=postgres://x@localhost/x REDIS_URL=redis://localhost python manage.py collectstatic --noinput
RUN useradd --system --home /app tierscope
USER tierscope
EXPOSE 8000
