"""Settings come from the environment; bad values stop the start-up with a named variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuatrola_site.env import (
    ImproperlyConfiguredEnv,
    env_bool,
    env_int,
    env_int_list,
    env_list,
    env_url,
)

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 20 + "-production-secret-with-enough-entropy-0123456789",
    "ALLOWED_HOSTS": "cuatrola.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://cuatrola.example.com",
    "HTTPS": "1",
    "EMAIL_HOST": "smtp.example.com",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "HTTPS"}}
    clean.pop("STATIC_MANIFEST", None)
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_env_bool_reads_the_usual_spellings():
    assert env_bool("X", False, {"X": "yes"}) is True
    assert env_bool("X", True, {"X": "0"}) is False
    assert env_bool("X", True, {}) is True


def test_env_bool_names_the_variable_when_the_value_is_bad():
    with pytest.raises(ImproperlyConfiguredEnv, match="DEBUG"):
        env_bool("DEBUG", False, {"DEBUG": "maybe"})


def test_env_int_refuses_words_and_values_below_the_minimum():
    with pytest.raises(ImproperlyConfiguredEnv, match="EMAIL_PORT"):
        env_int("EMAIL_PORT", 25, {"EMAIL_PORT": "twenty"})
    with pytest.raises(ImproperlyConfiguredEnv, match="EMAIL_PORT"):
        env_int("EMAIL_PORT", 25, {"EMAIL_PORT": "0"}, minimum=1)


def test_env_list_splits_on_commas_and_drops_blanks():
    assert env_list("H", [], {"H": "a.com, b.com,,"}) == ["a.com", "b.com"]


def test_env_int_list_reads_whole_numbers_and_refuses_the_rest():
    assert env_int_list("QUIT_WAIT_MINUTES", [0, 5], {}) == (0, 5)
    read = env_int_list("QUIT_WAIT_MINUTES", [0], {"QUIT_WAIT_MINUTES": "0, 10,60"})
    assert read == (0, 10, 60)
    for bad in ("five", "5,-1", "1.5", ","):
        with pytest.raises(ImproperlyConfiguredEnv, match="QUIT_WAIT_MINUTES"):
            env_int_list("QUIT_WAIT_MINUTES", [0], {"QUIT_WAIT_MINUTES": bad})


def test_env_url_refuses_an_unknown_scheme():
    with pytest.raises(ImproperlyConfiguredEnv, match="REDIS_URL"):
        env_url("REDIS_URL", ("redis",), {"REDIS_URL": "http://localhost"})
    assert env_url("REDIS_URL", ("redis",), {"REDIS_URL": ""}) is None


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DEBUG", "perhaps"),
        ("DATABASE_URL", "mysql://x"),
        ("REDIS_URL", "http://localhost:6379"),
        ("EMAIL_PORT", "smtp"),
        ("CSRF_TRUSTED_ORIGINS", "cuatrola.example.com"),
        ("ACCOUNT_EMAIL_VERIFICATION", "sometimes"),
        ("SECRET_KEY", "short"),
        ("PRESENCE_HEARTBEAT_SECONDS", "0"),
        ("PRESENCE_STALE_SECONDS", "30"),  # less than two 20-second beats
        ("QUIT_WAIT_MINUTES", "5,ten"),
        ("QUIT_CLEAN_PER_STEP", "0"),
    ],
)
def test_a_bad_value_stops_the_start_up_naming_the_variable(variable, value):
    env = {**PRODUCTION_ENV, variable: value}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert result.stderr.startswith("Configuration error:")
    assert variable in result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_check_deploy_is_clean_with_production_values():
    result = run_manage("check", "--deploy", "--fail-level", "DEBUG", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues (0 silenced)." in result.stdout
