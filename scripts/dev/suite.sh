# The test suite's half of scripts/dev/stack.sh, which sources it after its own functions (load_env, say, die,
# $ROOT, $PY, $LOG, $DATA and the local URLs): make test's type check, the whole suite in two pytest processes,
# the check that tests leave the checkout as they found it, and make docs.

tree_state() {
  # What git sees of the checkout (status and the diff of tracked files); empty outside a git work tree.
  git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
  { git -C "$ROOT" status --porcelain=v1 --untracked-files=all; git -C "$ROOT" diff; } | sha256sum
}

# The tests that mostly wait on processes of their own (the fault suite's outages and recoveries, real Celery
# workers, a hot standby, prometheus, the API fuzzer's HTTP round trips): the whole suite runs them in a second
# pytest beside the rest, so that the two halves take about as long as each other.
BESIDE="faults or worker or replica or prometheus or fuzz"

whole_suite() {
  # The tests marked $BESIDE run in a second pytest beside the rest, with their own test database and Redis db;
  # their output is printed after the main run's. Either failing fails the whole.
  local blog="$LOG/beside.log" bpid mrc=0 brc=0 redis="${REDIS_URL:-$LOCAL_REDIS_URL}"
  mkdir -p "$LOG"
  if [[ "$redis" =~ /[0-9]+$ ]]; then redis="${redis%/*}/15"; else redis="${redis%/}/15"; fi
  TEST_DB_NAME="${TEST_DB_NAME:-test_tierscope}_beside" REDIS_URL="$redis" \
    "$PY" -m pytest -m "$BESIDE" --durations=10 >"$blog" 2>&1 &
  bpid=$!
  trap 'kill "$bpid" 2>/dev/null || true' INT TERM
  # The rest is CPU-bound: pytest-xdist spreads it over the machine's cores (TIERSCOPE_TEST_WORKERS, default
  # auto), a whole test file per worker in its order; each worker has its own test database (_gw0, _gw1, ...).
  # The slowest tests are listed after every whole run: what to look at when the suite nears its 15 minutes.
  "$PY" -m pytest -m "not ($BESIDE)" -n "${TIERSCOPE_TEST_WORKERS:-auto}" --dist loadfile --durations=25 || mrc=$?
  wait "$bpid" || brc=$?
  trap - INT TERM
  say "the tests that wait on processes ($BESIDE), run beside the rest (log: $blog):"
  cat "$blog"
  [ "$mrc" -eq 0 ] || return "$mrc"
  return "$brc"
}

typecheck() {
  # mypy (mypy.ini, docs/install.md): its settings module needs the environment load_env sets.
  timeout 600 "$PY" -m mypy  # a cold run takes seconds; the limit only bounds the wait below
}

cmd_test() {
  load_env
  # The whole suite type-checks first, beside collectstatic (fail fast: a type error runs no test).
  local tlog="$LOG/mypy.log" tpid=""
  if [ "$#" -eq 0 ]; then mkdir -p "$LOG"; typecheck >"$tlog" 2>&1 & tpid=$!; fi
  # collectstatic with the manifest storage make run uses: a broken static reference fails here.
  "$PY" manage.py collectstatic --noinput >/dev/null
  if [ -n "$tpid" ]; then
    if ! wait "$tpid"; then cat "$tlog" >&2; die "mypy found type errors (make lint shows them too)"; fi
    say "mypy: $(tail -n 1 "$tlog")"
  fi
  export DJANGO_SETTINGS_MODULE=config.settings.test
  # Tests leave the checkout as they found it: what they produce goes under .data/ (make docs publishes it).
  local before rc=0; before="$(tree_state)"
  if [ "$#" -eq 0 ]; then whole_suite || rc=$?; else "$PY" -m pytest "$@" || rc=$?; fi
  if [ "$(tree_state)" != "$before" ]; then
    say "the tests changed the checkout (they must write under .data/ only):"
    git -C "$ROOT" status --short --untracked-files=all >&2
    [ "$rc" -ne 0 ] || rc=1
  fi
  return "$rc"
}

cmd_publish_docs() {
  # Copies into docs/ what the last test run produced: browser screenshots and the fault suite's report.
  local shots="$DATA/screenshots" reports="$DATA/reports" n=0 f
  if [ -d "$shots" ]; then
    mkdir -p "$ROOT/docs/screenshots"
    for f in "$shots"/*.png; do [ -e "$f" ] || continue; cp "$f" "$ROOT/docs/screenshots/"; n=$((n + 1)); done
  fi
  if [ -d "$reports" ]; then
    for f in "$reports"/*.md; do [ -e "$f" ] || continue; cp "$f" "$ROOT/docs/"; n=$((n + 1)); done
  fi
  [ "$n" -gt 0 ] || die "nothing to publish under $DATA/screenshots or $DATA/reports: run make test (or make faults) first"
  say "published $n file(s) into docs/; review them with git status / git diff before committing"
}
