"""What a person deploying the site starts from: .env.example, the local profile, .dockerignore.

No Docker engine here: the image's contents are checked through .dockerignore's
rules, and the documented settings through `manage.py` in a fresh process.
"""

import fnmatch
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
    env = {**env_example(), **local["web"]["environment"], "STATIC_MANIFEST": "0"}
    script = (
        "from django.test import Client; "
        "r = Client().get('/', HTTP_HOST='localhost:8000'); "
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
        pattern = rule.lstrip("!").rstrip("/")
        candidates = [pattern, pattern.removeprefix("**/")]
        if any(fnmatch.fnmatchcase(p, c) for p in prefixes for c in candidates) or any(
            fnmatch.fnmatchcase(part, pattern.removeprefix("**/"))
            for part in parts
            if pattern.startswith("**/")
        ):
            result = not negate
    return result


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        ".env.production",
        ".venv/bin/python",
        ".tools/bin/uv",
        "db.sqlite3",
        "db.sqlite3-wal",
        "test-db.sqlite3",
        "node_modules/axe-core/axe.min.js",
        "staticfiles/css/site.css",
        ".git/HEAD",
        "games/__pycache__/services.cpython-313.pyc",
        "celerybeat-schedule",
    ],
)
def test_the_image_never_gets_secrets_or_local_state(path):
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
