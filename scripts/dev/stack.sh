#!/usr/bin/env bash
# The whole local stack without Docker: venv, npm packages, a project-local
# PostgreSQL cluster and Redis under .data/, and web (gunicorn), Celery worker and
# beat as programs of a supervisord that restarts them (scripts/dev/supervisord.conf).
# Called by the Makefile; every step is idempotent so a second `make run` reuses what exists,
# and every wait has a time limit.
#
# Relocatable, so a second whole stack can run beside the developers' one (tests/faults/ does):
#   TIERSCOPE_DATA_DIR (default .data), TIERSCOPE_PG_PORT, TIERSCOPE_REDIS_PORT, TIERSCOPE_WEB_BIND.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DATA="${TIERSCOPE_DATA_DIR:-$ROOT/.data}"
case "$DATA" in /*) ;; *) DATA="$ROOT/$DATA" ;; esac
RUN="$DATA/run"
LOG="$DATA/log"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
export PGCONNECT_TIMEOUT=10  # psql/createdb below never wait on a server longer than this

local_urls() {
  # Ports of the project-local servers: from the environment, else .env, else the defaults.
  PG_PORT="${TIERSCOPE_PG_PORT:-55432}"
  REDIS_PORT="${TIERSCOPE_REDIS_PORT:-56379}"
  WEB_BIND="${TIERSCOPE_WEB_BIND:-127.0.0.1:8000}"
  LOCAL_DATABASE_URL="postgres://tierscope:tierscope@127.0.0.1:${PG_PORT}/tierscope"
  LOCAL_REDIS_URL="redis://127.0.0.1:${REDIS_PORT}/0"
}

is_local_url() { [[ "$1" =~ ^(postgres://tierscope:tierscope@127\.0\.0\.1:[0-9]+/tierscope|redis://127\.0\.0\.1:[0-9]+/0)$ ]]; }

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
  local line key from_env=" "
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in ''|'#'*) continue ;; esac
    key="${line%%=*}"
    if [ -z "${!key+x}" ]; then export "$line"; from_env+="$key "; fi
  done < .env
  local_urls
  # .env's local URLs follow the ports of this run: TIERSCOPE_PG_PORT=55532 alone moves the database too,
  # never leaving a private stack on the developers' servers.
  if [[ "$from_env" == *" DATABASE_URL "* ]] && is_local_url "$DATABASE_URL"; then export DATABASE_URL="$LOCAL_DATABASE_URL"; fi
  if [[ "$from_env" == *" REDIS_URL "* ]] && is_local_url "$REDIS_URL"; then export REDIS_URL="$LOCAL_REDIS_URL"; fi
  # Marks every process this stack starts (supervisord passes it on), so stop finds orphans of this data dir only.
  export TIERSCOPE_STACK_DATA="$DATA"
  export STATIC_ROOT="${STATIC_ROOT:-$DATA/staticfiles}"
  if [ "$DATA" != "$ROOT/.data" ] && [ -z "${TIERSCOPE_ADMIN_PASSWORD:-}" ]; then
    # A second stack's admin (a test harness's stack): a password it can read back from its own data dir;
    # the developers' stack prints its generated password once, when bootstrap creates the admin.
    mkdir -p "$DATA"
    [ -f "$DATA/admin-password" ] || (umask 077; python3 -c 'import secrets; print(secrets.token_urlsafe(12))' > "$DATA/admin-password")
    TIERSCOPE_ADMIN_PASSWORD="$(cat "$DATA/admin-password")"; export TIERSCOPE_ADMIN_PASSWORD
  fi
}

uses_local_pg() { [ "${DATABASE_URL}" = "${LOCAL_DATABASE_URL}" ]; }
uses_local_redis() { [ "${REDIS_URL}" = "${LOCAL_REDIS_URL}" ]; }

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && { echo "$d"; return 0; }; done
  return 1
}

cmd_system() {
  # System packages: PostgreSQL and Redis servers unless external URLs are given; Chromium and Prometheus for tests.
  python3 -c 'import ensurepip' 2>/dev/null || as_root_apt python3-venv
  if uses_local_pg && ! pg_bin >/dev/null; then as_root_apt postgresql; fi
  if uses_local_redis && ! command -v redis-server >/dev/null; then as_root_apt redis-server; fi
  if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then as_root_apt chromium chromium-driver fonts-dejavu-core; fi
  # Prometheus (and promtool) for the /metrics tests only: they scrape a live server and query it back.
  if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/prometheus ]; then as_root_apt prometheus; fi
  # The single sign-on browser tests start a real OpenLDAP server (slapd) with its command-line tools.
  if [ "${1:-}" = "--browser" ] && [ ! -x /usr/sbin/slapd ]; then as_root_apt slapd ldap-utils; fi
  # python-ldap (LDAP login) has no wheel on PyPI: pip builds it against OpenLDAP's and SASL's headers.
  if ! { [ -x "$PY" ] && "$PY" -c 'import ldap' 2>/dev/null; }; then as_root_apt gcc python3-dev libldap2-dev libsasl2-dev; fi
}

stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

install_requirements() {
  # uv (pinned in requirements-dev.txt) installs the same pins as pip in a third of the time (31 s against 102 s
  # here). --compile-bytecode, as pip does: where PYTHONDONTWRITEBYTECODE is set (it is on the CI machine),
  # every process would otherwise compile Django and the rest again, 5 s a start. uv does not read pip's
  # configuration files: where it fails (say, an index that only pip.conf names), pip installs them, and says so.
  local uv_pin; uv_pin="$(grep -o '^uv==[^ ]*' requirements-dev.txt)"
  if "$VENV/bin/pip" install -q --disable-pip-version-check "$uv_pin" \
    && "$VENV/bin/uv" pip install -q --compile-bytecode --python "$PY" -r requirements-dev.txt; then
    return 0
  fi
  say "uv could not install the requirements: installing them with pip"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r requirements-dev.txt
}

cmd_setup() {
  load_env
  cmd_system "${1:-}"
  mkdir -p "$RUN" "$LOG"
  if [ ! -x "$PY" ]; then say "creating .venv"; python3 -m venv "$VENV"; fi
  local req_sum; req_sum="$(cat requirements.txt requirements-dev.txt | sha256sum | cut -d' ' -f1)"
  if ! stamp_ok "$VENV/.tierscope-requirements" "$req_sum"; then
    say "installing Python requirements"
    install_requirements
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
    # client_connection_check_interval: the session of a killed worker ends within seconds even in the
    # middle of a statement, releasing its target lock (by default it runs on until the statement ends).
    pg_run "$bin/pg_ctl" -D "$pgdata" -l "$LOG/postgres.log" -w -t 60 \
      -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $DATA/pg-run -c fsync=${TIERSCOPE_PG_FSYNC:-on} \
          -c shared_buffers=${TIERSCOPE_PG_SHARED_BUFFERS:-1GB} -c max_wal_size=4GB \
          -c client_connection_check_interval=2s" start >/dev/null \
      || die "PostgreSQL did not start, see $LOG/postgres.log"
  fi
  # The application database (the cluster's superuser is tierscope; tests create test_tierscope).
  PGPASSWORD=tierscope "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U tierscope -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname='tierscope'" | grep -q 1 \
    || PGPASSWORD=tierscope "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U tierscope tierscope
}

start_redis() {
  mkdir -p "$DATA/redis"
  if alive "$RUN/redis.pid"; then
    say "Redis already running on 127.0.0.1:$REDIS_PORT"; return 0
  fi
  say "starting Redis on 127.0.0.1:$REDIS_PORT"
  # appendonly: a crash of Redis loses at most the last second of queued collections, not everything since the last save.
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$DATA/redis" --daemonize yes \
    --pidfile "$RUN/redis.pid" --logfile "$LOG/redis.log" --save 60 1000 --appendonly yes >/dev/null
  local i; for i in $(seq 1 100); do timeout 2 redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  die "Redis did not start, see $LOG/redis.log"
}

pid_alive() {
  # A killed daemon stays a zombie until init reaps it, and kill -0 still succeeds on a zombie.
  kill -0 "$1" 2>/dev/null && [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)" != Z ]
}
alive() { [ -f "$1" ] && pid_alive "$(cat "$1")"; }

cmd_prepare() {
  load_env
  say "migrating the database"
  "$PY" manage.py migrate --noinput >"$LOG/migrate.log" || { cat "$LOG/migrate.log"; die "migrate failed"; }
  "$PY" manage.py collectstatic --noinput >/dev/null
  "$PY" manage.py bootstrap
}

supervisor_conf() {
  # The template with this run's paths and ports; supervisord reads the environment exported by load_env.
  sed -e "s|@ROOT@|$ROOT|g" -e "s|@RUN@|$RUN|g" -e "s|@LOG@|$LOG|g" -e "s|@VENV@|$VENV|g" \
      -e "s|@WEB_BIND@|$WEB_BIND|g" -e "s|@WEB_CONCURRENCY@|${WEB_CONCURRENCY:-3}|g" \
      -e "s|@WORKER_CONCURRENCY@|${WORKER_CONCURRENCY:-2}|g" -e "s|@ID@|$(basename "$DATA")|g" \
      scripts/dev/supervisord.conf > "$RUN/supervisord.conf.new"
  mv "$RUN/supervisord.conf.new" "$RUN/supervisord.conf"
}

ctl() { timeout 30 "$VENV/bin/supervisorctl" -c "$RUN/supervisord.conf" "$@"; }

cmd_start() {
  load_env
  mkdir -p "$RUN" "$LOG"
  stop_legacy  # daemons of the stack.sh before supervisord, if any still run
  supervisor_conf
  if alive "$RUN/supervisord.pid"; then
    say "supervisord already running: starting what is stopped, applying a changed configuration"
    ctl reread >/dev/null && ctl update >/dev/null
    ctl start all >/dev/null || true  # 'already started' is not an error here
  else
    stop_orphans  # no supervisord: whatever still runs of this stack was left behind (it would hold the port)
    say "starting supervisord: web on http://$WEB_BIND, Celery worker and beat"
    "$VENV/bin/supervisord" -c "$RUN/supervisord.conf"
  fi
  wait_healthy 120 || { ctl status || true; die "not healthy after 120 s: $(curl -sS --max-time 5 "http://$WEB_BIND/healthz" 2>&1); see $LOG/"; }
  echo
  say "tierscope is running: http://$WEB_BIND/"
  "$PY" manage.py bootstrap --print-login
  echo "logs: $LOG/   processes: $0 ctl status   stop everything with: make stop"
}

wait_healthy() {
  # /healthz answers 200 once PostgreSQL, Redis and the worker's and beat's heartbeats are all there.
  local deadline=$((SECONDS + $1))
  while [ $SECONDS -lt $deadline ]; do
    curl -fsS --max-time 5 "http://$WEB_BIND/healthz" >/dev/null 2>&1 && return 0
    sleep 1
  done
  return 1
}

stop_pid() {
  # TERM, up to 10 s to exit, then KILL.
  local pid="$1" i
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 1 100); do pid_alive "$pid" || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

stop_pidfile() {
  local name="$1" file="$RUN/$1.pid"
  if alive "$file"; then stop_pid "$(cat "$file")"; say "stopped $name"; fi
  rm -f "$file"
}

stop_legacy() {
  # Before supervisord, web/worker/beat ran as daemons with pidfiles in $RUN.
  stop_pidfile beat; stop_pidfile worker; stop_pidfile web
}

stack_orphans() {
  # Processes of this checkout's gunicorn/celery that belong to this data dir: marked by
  # TIERSCOPE_STACK_DATA, or (only for the default data dir) unmarked ones from before the marker.
  # The test suite's own workers run `python -m celery` and are never matched.
  local proc pid cmd marker
  for proc in /proc/[0-9]*; do
    pid="${proc#/proc/}"
    [ "$pid" = "$$" ] && continue
    cmd="$(tr '\0' ' ' < "$proc/cmdline" 2>/dev/null)" || continue
    case "$cmd" in *"$VENV/bin/gunicorn "*|*"$VENV/bin/celery "*) ;; *) continue ;; esac
    marker="$(tr '\0' '\n' < "$proc/environ" 2>/dev/null | sed -n 's/^TIERSCOPE_STACK_DATA=//p')"
    if [ "$marker" = "$DATA" ] || { [ -z "$marker" ] && [ "$DATA" = "$ROOT/.data" ]; }; then echo "$pid"; fi
  done
}

stop_orphans() {
  # TERM, up to 10 s for all to exit, then KILL what is left.
  local orphans p i; orphans="$(stack_orphans | tr '\n' ' ')"
  [ -n "${orphans// }" ] || return 0
  say "stopping orphans of an earlier run: $orphans"
  for p in $orphans; do kill "$p" 2>/dev/null || true; done
  for i in $(seq 1 100); do [ -z "$(stack_orphans)" ] && return 0; sleep 0.1; done
  for p in $(stack_orphans); do kill -9 "$p" 2>/dev/null || true; done
}

cmd_stop() {
  load_env
  if alive "$RUN/supervisord.pid"; then
    local pid; pid="$(cat "$RUN/supervisord.pid")"
    # shutdown stops every program (warm, within its stopwaitsecs) before supervisord exits.
    ctl shutdown >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
    local i; for i in $(seq 1 900); do pid_alive "$pid" || break; sleep 0.1; done
    pid_alive "$pid" && kill -9 "$pid" 2>/dev/null || true
    say "stopped supervisord (web, worker, beat)"
  fi
  rm -f "$RUN/supervisord.pid"
  stop_legacy
  stop_orphans
  if uses_local_redis; then stop_pidfile redis; fi
  if uses_local_pg && [ -f "$DATA/pg/PG_VERSION" ]; then
    local bin; bin="$(pg_bin)" || return 0
    if pg_run "$bin/pg_ctl" -D "$DATA/pg" status >/dev/null 2>&1; then
      pg_run "$bin/pg_ctl" -D "$DATA/pg" -m fast -w -t 60 stop >/dev/null && say "stopped PostgreSQL"
    fi
  fi
}

# make test and make docs: cmd_test, typecheck, cmd_publish_docs.
source "$ROOT/scripts/dev/suite.sh"

case "${1:-}" in
  setup) shift; cmd_setup "$@" ;;
  services) cmd_services ;;
  publish-docs) cmd_publish_docs ;;
  prepare) cmd_prepare ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  ctl) shift; load_env; ctl "$@" ;;
  test) shift; cmd_test "$@" ;;
  typecheck) load_env; typecheck ;;
  env) load_env; env | grep -E '^(DATABASE_URL|REDIS_URL)=' ;;
  *) die "usage: stack.sh setup|services|prepare|start|stop|ctl <supervisorctl command>|test|typecheck|publish-docs" ;;
esac
