# Two commands do all set-up on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

export UV_PYTHON_DOWNLOADS := never
# Bytecode is written and kept: a machine that sets PYTHONDONTWRITEBYTECODE would
# otherwise compile every module again in every process it starts (about 3 s of CPU
# each: a web process back from a crash, a worker, each test process).
unexport PYTHONDONTWRITEBYTECODE
# uv uses the machine's Python 3.13 (pyenv on this kind of machine); it never downloads one.
PYTHON313 := $(shell command -v python3.13 2>/dev/null || ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.13*/bin/python3.13 2>/dev/null | tail -n 1)
export UV_PYTHON := $(PYTHON313)
UV := $(shell command -v uv 2>/dev/null || echo $(CURDIR)/.tools/bin/uv)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: help run test venv npm lint format messages

help:
	@echo "make run   - install from the lock file, migrate, seed and serve http://$(HOST):$(PORT)"
	@echo "make test  - run the whole test suite (PostgreSQL and Redis when DATABASE_URL/REDIS_URL are set)"
	@echo "make lint  - ruff check and format check, import contracts (lint-imports), mypy (strict for the engine and bots), Biome for static/js"

$(CURDIR)/.tools/bin/uv:
	python3 -m venv .tools
	.tools/bin/pip install --quiet uv==0.13.9

$(VENV)/.synced: pyproject.toml uv.lock | $(UV)
	@test -n "$(PYTHON313)" || { echo "Python 3.13 is needed (pyenv install 3.13)"; exit 1; }
	$(UV) sync --frozen --compile-bytecode
	@touch $@

venv: $(VENV)/.synced

# Browser packages (Pyodide for offline practice) from the npm registry, as locked.
node_modules/.package-lock.json: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed (apt-get install npm)"; exit 1; }
	npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

npm: node_modules/.package-lock.json

# `make run` serves the site as it would be hosted: DEBUG off, static files collected
# and served by WhiteNoise, a secret key made once and kept in .secret_key (not in git).
# `DEBUG=1 make run` turns Django's debug pages on for development.
# The web server is uvicorn with the flags of docker-compose.yml's web processes
# (docs/operations.md, "Web server"; tests/cuatrola_site/test_make_run.py starts it with
# the same variables and flags). RUN_EMBEDDED_BEAT: cuatrola_site/asgi.py starts the
# periodic tasks' ticker as uvicorn imports the application.
RUN_ENV = DEBUG=$${DEBUG:-0} HTTPS=$${HTTPS:-0} \
	ALLOWED_HOSTS=$${ALLOWED_HOSTS:-$(HOST),localhost,127.0.0.1} \
	SECRET_KEY="$${SECRET_KEY:-$$(cat .secret_key)}"

WEB_FLAGS = --loop uvloop --http httptools --ws websockets-sansio --ws-max-size 1048576 \
	--ws-per-message-deflate false --lifespan on --no-proxy-headers \
	--timeout-keep-alive 130 --timeout-graceful-shutdown 2

.secret_key:
	@umask 077 && python3 -c "import secrets; print(secrets.token_urlsafe(64))" > $@

run: venv npm .secret_key
	$(RUN_ENV) $(PY) manage.py migrate --noinput
	$(RUN_ENV) $(PY) manage.py seed
	$(RUN_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(RUN_ENV) RUN_EMBEDDED_BEAT=1 $(VENV)/bin/uvicorn --host $(HOST) --port $(PORT) $(WEB_FLAGS) cuatrola_site.asgi:application

# The suite runs in PYTEST_WORKERS processes (pytest-xdist; 0: in this one). Each has
# its own test database and Redis database (tests/worker_services.py). `--dist load`
# hands each worker tests in the suite's order, which pytest-django sorts (the tests
# that empty the database after the ones that need its migrated rows).
PYTEST_WORKERS ?= 2
test: venv npm
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist load $(PYTEST_ARGS)

lint: venv npm
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports  # the apps' layers (pyproject.toml, docs/architecture.md)
	DEBUG=1 $(VENV)/bin/mypy --strict cuatrola games/frames/__init__.py games/frames/builder.py games/frames/offline_practice.py games/words/__init__.py games/words/catalogue.py tournaments/formats  # the pure library (cuatrola/) and what offline practice ships with it
	DEBUG=1 $(VENV)/bin/mypy  # the rest, with django-stubs (pyproject.toml [tool.mypy])
	node_modules/.bin/biome ci --error-on-warnings  # static/js: lint and format (biome.json)

format: venv npm
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
	node_modules/.bin/biome check --write

# Needs gettext (msgfmt) on the machine; the compiled .mo files are committed so
# that `make run` never does.
LOCALES := --locale es --locale en --locale fr --locale it --locale ko --locale th
MESSAGE_IGNORES := --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'bench/*' --ignore 'tests/*' --ignore '.tools/*' --ignore 'node_modules/*'
messages: venv
	DEBUG=1 $(PY) manage.py makemessages $(LOCALES) --add-location file --no-obsolete $(MESSAGE_IGNORES)
	DEBUG=1 $(PY) manage.py makemessages --domain djangojs $(LOCALES) --add-location file --no-obsolete $(MESSAGE_IGNORES) --ignore 'static/vendor/*'
	DEBUG=1 $(PY) manage.py tidy_messages
	DEBUG=1 $(PY) manage.py compilemessages --ignore '.venv/*' --ignore '.tools/*'
