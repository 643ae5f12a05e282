# tierscope — everything runs from here, without Docker.
#   make run     the whole stack with the demo target on http://127.0.0.1:8000
#   make test    the same set-up, then the whole test suite (real PostgreSQL, Redis, Celery, Chromium)
#   make stop    stops everything make run / make services started (supervisord, its programs, orphans of
#                an earlier run, Redis, PostgreSQL)
#   make faults  only the process-fault suite (tests/faults/: a private stack on other ports, a few minutes)
#   make lint    ruff, then mypy (mypy.ini: strict on the pure modules); make test type-checks first too
#   make docs    publishes what the last test run produced under .data/ (browser screenshots, the fault suite's
#                report) into docs/: tests never write into the tree themselves
# Every wait in scripts/dev/stack.sh has a time limit.
STACK := scripts/dev/stack.sh
PYTEST_ARGS ?=

.PHONY: run test faults stop services setup bench lint clean-data docs

run:
	@$(STACK) setup
	@$(STACK) services
	@$(STACK) prepare
	@$(STACK) start

test:
	@$(STACK) setup --browser
	@$(STACK) services
	@$(STACK) test $(PYTEST_ARGS)

faults:
	@$(STACK) setup
	@$(STACK) test -m faults tests/faults $(PYTEST_ARGS)

services:
	@$(STACK) setup
	@$(STACK) services

setup:
	@$(STACK) setup

stop:
	@$(STACK) stop

bench:
	@$(STACK) setup
	@$(STACK) services
	@.venv/bin/python bench/run.py

docs:
	@$(STACK) publish-docs

clean-data: stop
	rm -rf .data

lint:
	@.venv/bin/ruff check apps config tests bench
	@.venv/bin/vulture  # dead code: paths, rules and whitelist in pyproject.toml's [tool.vulture]
	@$(STACK) typecheck
