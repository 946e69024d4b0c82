# One image for web (uvicorn), worker and beat; the command picks the role.

# Browser packages (Pyodide, for offline practice) from the npm registry, as locked.
FROM node:20-bookworm-slim AS browser-packages
WORKDIR /npm
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

FROM python:3.13-slim-bookworm

# The image's code is compiled once, here (the dependencies by uv, the site below):
# nothing is written at run time, and a process that starts (a web process back from
# a crash, a deploy's new one) does not spend seconds compiling every module again.
ENV PYTHONDONTWRITEBYTECODE=1 \
    UV_COMPILE_BYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    PATH="/opt/venv/bin:$PATH"

RUN pip install --no-cache-dir uv==0.13.9 \
    && useradd --create-home --uid 1000 cuatrola

WORKDIR /app
COPY pyproject.toml uv.lock .python-version ./
RUN uv sync --frozen --no-dev --no-install-project

COPY . .
COPY --from=browser-packages /npm/node_modules ./node_modules
RUN python -m compileall -q -x '/node_modules/' /app
# collectstatic needs a key at build time only; the real one comes from the environment.
RUN SECRET_KEY=build-only-key-not-used-at-run-time-0123456789abcdefghij \
    DEBUG=0 python manage.py collectstatic --noinput --verbosity 0

USER cuatrola
EXPOSE 8000
# The web command, as docker-compose.yml runs it (docs/operations.md, "Web server").
CMD ["uvicorn", "--host", "0.0.0.0", "--port", "8000", "--loop", "uvloop", "--http", "httptools", "--ws", "websockets-sansio", "--ws-max-size", "1048576", "--ws-per-message-deflate", "false", "--lifespan", "on", "--no-proxy-headers", "--timeout-keep-alive", "130", "--timeout-graceful-shutdown", "2", "cuatrola_site.asgi:application"]
