"""What a person deploying the site starts from: .env.example, the local profile, .dockerignore.

No Docker engine here: the image's contents are checked through .dockerignore's
rules, and the documented settings through `manage.py` in a fresh process.
"""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def env_example() -> dict[str, str]:
    """.env.example as docker compose reads it, the blank secrets filled in as instructed."""
    values = dict(
        re.findall(r"^([A-Z][A-Z0-9_]*)=(.*)$", (ROOT / ".env.example").read_text(), re.M)
    )
    for name, value in values.items():
        if not value and (name == "SECRET_KEY" or name.endswith("PASSWORD")):
            values[name] = secrets.token_urlsafe(64)
    return values


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_"))}
    for name in ("DEBUG", "SECRET_KEY", "HTTPS", "STATIC_MANIFEST", "BEHIND_PROXY"):
        clean.pop(name, None)
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_check_deploy_passes_with_the_documented_production_settings():
    env = env_example()
    assert env["EMAIL_HOST"], "production mail goes through SMTP"
    result = manage("check", "--deploy", "--fail-level", "DEBUG", env=env)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues (0 silenced)" in result.stdout


def test_the_production_settings_send_mail_through_smtp():
    script = "from django.conf import settings; print(settings.MAILERS['default']['BACKEND'])"
    result = manage("shell", "--no-imports", "-c", script, env=env_example())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.core.mail.backends.smtp.EmailBackend"


def test_the_local_profile_serves_http_localhost_without_a_redirect():
    local = yaml.safe_load((ROOT / "docker-compose.local.yml").read_text())["services"]
    env = {**env_example(), **local["web1"]["environment"], "STATIC_MANIFEST": "0"}
    # As the local profile's proxy forwards a browser's request: plain HTTP.
    script = (
        "from django.test import Client; "
        "r = Client().get('/', HTTP_HOST='localhost', HTTP_X_FORWARDED_PROTO='http', "
        "HTTP_X_FORWARDED_FOR='172.18.0.1'); "
        "print(r.status_code, r.cookies.get('csrftoken') and r.cookies['csrftoken']['secure'])"
    )
    result = manage("shell", "--no-imports", "-c", script, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "200"  # not 301 to https, not 400 for the host


def test_the_production_settings_redirect_plain_http_to_https():
    script = (
        "from django.test import Client; "
        "print(Client().get('/', HTTP_HOST='cuatrola.example.com').status_code)"
    )
    result = manage(
        "shell", "--no-imports", "-c", script, env={**env_example(), "STATIC_MANIFEST": "0"}
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "301"


# --- .dockerignore ---


def _pattern(rule: str) -> re.Pattern[str]:
    """A .dockerignore pattern as Docker matches it against a path from the context's
    root: `*` and `?` never cross a `/` (Go's filepath.Match), `**` spans any number
    of directories, `[...]` is a character class, a leading `/` is dropped."""
    out, rest = [], rule.strip("/")
    while rest:
        if rest.startswith("**/"):
            out.append("(?:.*/)?")
            rest = rest[3:]
        elif rest.startswith("**"):
            out.append(".*")
            rest = rest[2:]
        elif rest[0] == "*":
            out.append("[^/]*")
            rest = rest[1:]
        elif rest[0] == "?":
            out.append("[^/]")
            rest = rest[1:]
        elif rest[0] == "[" and "]" in rest:  # a character class, as written
            end = rest.index("]") + 1
            out.append(rest[:end])
            rest = rest[end:]
        else:
            out.append(re.escape(rest[0]))
            rest = rest[1:]
    return re.compile("".join(out))


def ignored(path: str) -> bool:
    """Docker's rule: the last matching pattern wins; `!` re-includes; a directory's
    pattern covers everything under it."""
    rules = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    result = False
    for rule in rules:
        negate = rule.startswith("!")
        pattern = _pattern(rule.removeprefix("!"))
        if any(pattern.fullmatch(prefix) for prefix in prefixes):
            result = not negate
    return result


def test_the_ignore_rules_are_read_as_docker_reads_them():
    assert _pattern("*.key").fullmatch("site.key")
    assert not _pattern("*.key").fullmatch("deploy/site.key")  # `*` stops at a `/`
    assert _pattern("**/*.key").fullmatch("deploy/caddy/site.key")
    assert _pattern("**/*.key").fullmatch("site.key")
    assert _pattern("**/__pycache__/").fullmatch("games/__pycache__")
    assert _pattern("**/*.py[cod]").fullmatch("games/services.pyc")


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        ".env.production",
        ".secret_key",
        "deploy/caddy/site.key",
        "certs/cuatrola.example.com.pem",
        ".venv/bin/python",
        ".tools/bin/uv",
        "db.sqlite3",
        "db.sqlite3-wal",
        "test-db.sqlite3",
        "node_modules/axe-core/axe.min.js",
        "staticfiles/css/site.css",
        ".git/HEAD",
        "games/__pycache__/services.cpython-313.pyc",
        "games/services.pyc",
        "celerybeat-schedule",
    ],
)
def test_the_image_never_gets_secrets_or_local_state(path):
    assert ignored(path), path


def test_every_secret_file_the_makefile_writes_stays_out_of_the_image():
    # A target written with `umask 077` is a secret of this machine (`make run`'s key).
    makefile = (ROOT / "Makefile").read_text()
    secrets_written = re.findall(r"^([^\s:]+):\n\t@?umask 077\b", makefile, re.M)
    assert ".secret_key" in secrets_written
    for path in secrets_written:
        assert ignored(path), path


@pytest.mark.parametrize(
    "path",
    [
        ".env.example",
        "manage.py",
        "pyproject.toml",
        "uv.lock",
        "static/css/site.css",
        "games/services.py",
        "deploy/postgres/roles.sh",
    ],
)
def test_the_image_gets_the_code_and_its_static_sources(path):
    assert not ignored(path), path
