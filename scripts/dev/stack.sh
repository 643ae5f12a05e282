#!/usr/bin/env bash
# The whole local stack without Docker: venv, npm packages, a project-local
# PostgreSQL cluster and Redis under .data/, web (gunicorn), Celery worker and beat.
# Called by the Makefile; every step is idempotent so a second `make run` reuses what exists.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DATA="$ROOT/.data"
RUN="$DATA/run"
LOG="$DATA/log"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

local_urls() {
  # Ports of the project-local servers: from the environment, else .env, else the defaults.
  PG_PORT="${TIERSCOPE_PG_PORT:-55432}"
  REDIS_PORT="${TIERSCOPE_REDIS_PORT:-56379}"
  WEB_BIND="${TIERSCOPE_WEB_BIND:-127.0.0.1:8000}"
  LOCAL_DATABASE_URL="postgres://tierscope:tierscope@127.0.0.1:${PG_PORT}/tierscope"
  LOCAL_REDIS_URL="redis://127.0.0.1:${REDIS_PORT}/0"
}

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root_apt() {
  # Installs Debian packages when missing; only possible as root.
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing Debian packages: ${missing[*]} (install them as root, or set DATABASE_URL/REDIS_URL to existing servers)"
  say "installing Debian packages: ${missing[*]}"
  # Keep the system cluster that postgresql's postinst creates from starting on a machine without systemd.
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

load_env() {
  # .env holds the development defaults and generated secrets; the real environment wins.
  local_urls
  if [ ! -f .env ]; then
    say "writing .env (development settings, generated secrets)"
    local secret fernet
    secret="$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
    fernet="$(python3 -c 'import base64, os; print(base64.urlsafe_b64encode(os.urandom(32)).decode())')"
    sed -e "s|^SECRET_KEY=.*|SECRET_KEY=${secret}|" \
        -e "s|^TIERSCOPE_FERNET_KEY=.*|TIERSCOPE_FERNET_KEY=${fernet}|" \
        -e "s|^DATABASE_URL=.*|DATABASE_URL=${LOCAL_DATABASE_URL}|" \
        -e "s|^REDIS_URL=.*|REDIS_URL=${LOCAL_REDIS_URL}|" \
        -e "s|^TIERSCOPE_PG_PORT=.*|TIERSCOPE_PG_PORT=${PG_PORT}|" \
        -e "s|^TIERSCOPE_REDIS_PORT=.*|TIERSCOPE_REDIS_PORT=${REDIS_PORT}|" .env.example > .env
    chmod 600 .env
  fi
  local line key
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in ''|'#'*) continue ;; esac
    key="${line%%=*}"
    if [ -z "${!key+x}" ]; then export "$line"; fi
  done < .env
  local_urls
}

uses_local_pg() { [ "${DATABASE_URL}" = "${LOCAL_DATABASE_URL}" ]; }
uses_local_redis() { [ "${REDIS_URL}" = "${LOCAL_REDIS_URL}" ]; }

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && { echo "$d"; return 0; }; done
  return 1
}

cmd_system() {
  # System packages: PostgreSQL and Redis servers unless external URLs are given; Chromium for browser tests.
  python3 -c 'import ensurepip' 2>/dev/null || as_root_apt python3-venv
  if uses_local_pg && ! pg_bin >/dev/null; then as_root_apt postgresql; fi
  if uses_local_redis && ! command -v redis-server >/dev/null; then as_root_apt redis-server; fi
  if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then as_root_apt chromium chromium-driver fonts-dejavu-core; fi
}

stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

cmd_setup() {
  load_env
  cmd_system "${1:-}"
  mkdir -p "$RUN" "$LOG"
  if [ ! -x "$PY" ]; then say "creating .venv"; python3 -m venv "$VENV"; fi
  local req_sum; req_sum="$(cat requirements.txt requirements-dev.txt | sha256sum | cut -d' ' -f1)"
  if ! stamp_ok "$VENV/.tierscope-requirements" "$req_sum"; then
    say "installing Python requirements"
    "$VENV/bin/pip" install -q --disable-pip-version-check -r requirements-dev.txt
    echo "$req_sum" > "$VENV/.tierscope-requirements"
  fi
  local npm_sum; npm_sum="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if ! stamp_ok node_modules/.tierscope-lock "$npm_sum" || [ ! -f static/vendor/chart.umd.min.js.map ]; then
    say "installing front-end packages (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    npm run -s build
    echo "$npm_sum" > node_modules/.tierscope-lock
  fi
}

pg_run() {
  # PostgreSQL refuses to run as root: run its tools as the postgres user.
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cmd_services() {
  load_env
  mkdir -p "$RUN" "$LOG"
  if uses_local_pg; then start_pg; else say "using DATABASE_URL from the environment"; fi
  if uses_local_redis; then start_redis; else say "using REDIS_URL from the environment"; fi
}

start_pg() {
  local bin; bin="$(pg_bin)" || die "PostgreSQL server binaries not found (run make setup)"
  local pgdata="$DATA/pg"
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    say "initialising PostgreSQL cluster in $pgdata"
    mkdir -p "$pgdata" "$DATA/pg-run"
    if [ "$(id -u)" -eq 0 ]; then
      chown postgres:postgres "$pgdata" "$DATA/pg-run"
      runuser -u postgres -- test -w "$pgdata" || die "the postgres user cannot reach $pgdata (a parent folder is not searchable by others); clone the project under a world-searchable path such as /srv, or set DATABASE_URL"
    fi
    local pw; pw="$(mktemp)"; echo tierscope > "$pw"; chmod 644 "$pw"
    pg_run "$bin/initdb" -D "$pgdata" -U tierscope --pwfile="$pw" --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$LOG/initdb.log" 2>&1 \
      || { rm -f "$pw"; die "initdb failed, see $LOG/initdb.log"; }
    rm -f "$pw"
  fi
  if pg_run "$bin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
    say "PostgreSQL already running on 127.0.0.1:$PG_PORT"
  else
    say "starting PostgreSQL on 127.0.0.1:$PG_PORT"
    [ "$(id -u)" -eq 0 ] && touch "$LOG/postgres.log" && chown postgres "$LOG/postgres.log"
    # Beyond PostgreSQL's defaults (sized for a tiny machine): a refresh at fleet scale rewrites tens
    # of MB per target, which 128 MB of buffers and checkpoints every 1 GB of WAL turn into disk waits.
    pg_run "$bin/pg_ctl" -D "$pgdata" -l "$LOG/postgres.log" -w -t 60 \
      -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $DATA/pg-run -c fsync=${TIERSCOPE_PG_FSYNC:-on} \
          -c shared_buffers=${TIERSCOPE_PG_SHARED_BUFFERS:-1GB} -c max_wal_size=4GB" start >/dev/null \
      || die "PostgreSQL did not start, see $LOG/postgres.log"
  fi
  # The application database (the cluster's superuser is tierscope; tests create test_tierscope).
  PGPASSWORD=tierscope "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U tierscope -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname='tierscope'" | grep -q 1 \
    || PGPASSWORD=tierscope "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U tierscope tierscope
}

start_redis() {
  mkdir -p "$DATA/redis"
  if [ -f "$RUN/redis.pid" ] && kill -0 "$(cat "$RUN/redis.pid")" 2>/dev/null; then
    say "Redis already running on 127.0.0.1:$REDIS_PORT"; return 0
  fi
  say "starting Redis on 127.0.0.1:$REDIS_PORT"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$DATA/redis" --daemonize yes \
    --pidfile "$RUN/redis.pid" --logfile "$LOG/redis.log" --save 60 1000 >/dev/null
  local i; for i in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  die "Redis did not start, see $LOG/redis.log"
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

cmd_prepare() {
  load_env
  say "migrating the database"
  "$PY" manage.py migrate --noinput >"$LOG/migrate.log" || { cat "$LOG/migrate.log"; die "migrate failed"; }
  "$PY" manage.py collectstatic --noinput >/dev/null
  "$PY" manage.py bootstrap
}

cmd_start() {
  load_env
  if alive "$RUN/web.pid"; then say "web already running"; else
    say "starting web (gunicorn) on http://$WEB_BIND"
    "$VENV/bin/gunicorn" config.wsgi --bind "$WEB_BIND" --workers "${WEB_CONCURRENCY:-3}" --daemon \
      --pid "$RUN/web.pid" --access-logfile "$LOG/web-access.log" --error-logfile "$LOG/web.log"
  fi
  if alive "$RUN/worker.pid"; then say "Celery worker already running"; else
    say "starting Celery worker"
    "$VENV/bin/celery" -A config worker --concurrency "${WORKER_CONCURRENCY:-2}" --detach \
      --pidfile "$RUN/worker.pid" --logfile "$LOG/worker.log" -l INFO
  fi
  if alive "$RUN/beat.pid"; then say "Celery beat already running"; else
    say "starting Celery beat"
    "$VENV/bin/celery" -A config beat --detach --pidfile "$RUN/beat.pid" --logfile "$LOG/beat.log" -l INFO \
      --scheduler django_celery_beat.schedulers:DatabaseScheduler
  fi
  local i; for i in $(seq 1 60); do
    curl -fsS "http://$WEB_BIND/healthz" >/dev/null 2>&1 && break; sleep 0.5
  done
  curl -fsS "http://$WEB_BIND/healthz" >/dev/null 2>&1 || die "web did not answer on /healthz, see $LOG/web.log"
  echo
  say "tierscope is running: http://$WEB_BIND/"
  "$PY" manage.py bootstrap --print-login
  echo "logs: $LOG/   stop everything with: make stop"
}

stop_pidfile() {
  local name="$1" file="$RUN/$1.pid" i
  if alive "$file"; then
    kill "$(cat "$file")" 2>/dev/null || true
    for i in $(seq 1 100); do alive "$file" || break; sleep 0.1; done
    alive "$file" && kill -9 "$(cat "$file")" 2>/dev/null || true
    say "stopped $name"
  fi
  rm -f "$file"
}

cmd_stop() {
  load_env
  stop_pidfile beat; stop_pidfile worker; stop_pidfile web
  if uses_local_redis; then stop_pidfile redis; fi
  if uses_local_pg && [ -f "$DATA/pg/PG_VERSION" ]; then
    local bin; bin="$(pg_bin)" || return 0
    if pg_run "$bin/pg_ctl" -D "$DATA/pg" status >/dev/null 2>&1; then
      pg_run "$bin/pg_ctl" -D "$DATA/pg" -m fast -w stop >/dev/null && say "stopped PostgreSQL"
    fi
  fi
}

cmd_test() {
  load_env
  # collectstatic with the manifest storage make run uses: a broken static reference fails here.
  "$PY" manage.py collectstatic --noinput >/dev/null
  export DJANGO_SETTINGS_MODULE=config.settings.test
  "$PY" -m pytest "$@"
}

case "${1:-}" in
  setup) shift; cmd_setup "$@" ;;
  services) cmd_services ;;
  prepare) cmd_prepare ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  test) shift; cmd_test "$@" ;;
  env) load_env; env | grep -E '^(DATABASE_URL|REDIS_URL)=' ;;
  *) die "usage: stack.sh setup|services|prepare|start|stop|test" ;;
esac
