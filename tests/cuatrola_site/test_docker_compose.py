"""docker-compose.yml cannot run here (no Docker engine); check what can be checked."""

import importlib
import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ("migrate", "web", "worker", "beat")


def test_the_stack_has_postgres_redis_web_worker_beat_and_a_migrate_step():
    assert set(SERVICES) >= {"postgres", "redis", "migrate", "web", "worker", "beat"}


@pytest.mark.parametrize("name", APP_SERVICES)
def test_every_app_service_builds_the_one_dockerfile(name):
    assert SERVICES[name]["build"] == "."
    assert (ROOT / "Dockerfile").exists()


@pytest.mark.parametrize("name", ["postgres", "redis", "web"])
def test_long_running_services_have_healthchecks(name):
    assert SERVICES[name]["healthcheck"]["test"]


@pytest.mark.parametrize("name", ["web", "worker", "beat"])
def test_app_services_wait_for_healthy_services_and_the_migration(name):
    depends = SERVICES[name]["depends_on"]
    assert depends["postgres"]["condition"] == "service_healthy"
    assert depends["redis"]["condition"] == "service_healthy"
    assert depends["migrate"]["condition"] == "service_completed_successfully"


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_point_at_the_stack_database_and_redis(name):
    environment = SERVICES[name]["environment"]
    assert environment["DATABASE_URL"].startswith("postgres://")
    assert "@postgres:5432/cuatrola" in environment["DATABASE_URL"]
    assert environment["REDIS_URL"] == "redis://redis:6379/0"


@pytest.mark.parametrize("name", ["web", "worker", "beat"])
def test_web_worker_and_beat_connect_as_the_application_role(name):
    assert SERVICES[name]["environment"]["DATABASE_URL"].startswith("postgres://cuatrola_app:")


def test_the_migrate_step_runs_as_the_owner_and_grants_the_application_role():
    assert SERVICES["migrate"]["environment"]["DATABASE_URL"].startswith(
        "postgres://cuatrola_owner:"
    )
    script = " ".join(SERVICES["migrate"]["command"])
    steps = [script.index(step) for step in ("migrate", "grant_app_role cuatrola_app", "seed")]
    assert steps == sorted(steps)


def test_postgres_creates_the_owner_and_the_application_roles_on_first_start():
    mounts = SERVICES["postgres"]["volumes"]
    mount = next(m for m in mounts if "docker-entrypoint-initdb.d" in m)
    script = (ROOT / mount.split(":")[0]).read_text()
    assert "CREATE ROLE cuatrola_owner LOGIN" in script
    assert "CREATE ROLE cuatrola_app LOGIN NOSUPERUSER" in script
    assert "OWNER TO cuatrola_owner" in script
    environment = SERVICES["postgres"]["environment"]
    assert environment["POSTGRES_USER"] == "postgres"  # neither role is the superuser
    assert {"DATABASE_OWNER_PASSWORD", "DATABASE_APP_PASSWORD"} <= set(environment)


def test_redis_keeps_the_broker_queue_across_restarts():
    command = SERVICES["redis"]["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert "--save" not in command or command[command.index("--save") + 1] != ""
    data = command[command.index("--dir") + 1]
    volume = next(v for v in SERVICES["redis"]["volumes"] if v.endswith(f":{data}"))
    assert volume.split(":")[0] in COMPOSE["volumes"]


def test_worker_and_beat_have_healthchecks_too():
    assert "inspect ping" in " ".join(SERVICES["worker"]["healthcheck"]["test"])
    assert "celerybeat-schedule" in " ".join(SERVICES["beat"]["healthcheck"]["test"])
    beat_schedule = SERVICES["beat"]["command"][SERVICES["beat"]["command"].index("--schedule") + 1]
    assert beat_schedule in " ".join(SERVICES["beat"]["healthcheck"]["test"])


def test_the_local_profile_serves_plain_http_on_localhost():
    local = yaml.safe_load((ROOT / "docker-compose.local.yml").read_text())["services"]
    environment = local["web"]["environment"]
    assert environment["HTTPS"] == "0" and environment["BEHIND_PROXY"] == "0"
    assert "localhost" in environment["ALLOWED_HOSTS"].split(",")
    assert "http://localhost:8000" in environment["CSRF_TRUSTED_ORIGINS"].split(",")
    assert set(local) <= {"web", "worker", "beat"}
    assert "8000:8000" in SERVICES["web"]["ports"]


def test_the_web_command_serves_the_asgi_application_with_daphne():
    command = SERVICES["web"]["command"]
    assert command[0] == "daphne"
    module_name, attribute = command[-1].split(":")
    assert hasattr(importlib.import_module(module_name), attribute)


@pytest.mark.parametrize("name", ["worker", "beat"])
def test_worker_and_beat_run_the_project_celery_app(name):
    command = SERVICES[name]["command"]
    assert command[:3] == ["celery", "--app", "cuatrola_site"]
    assert command[3] == name
    assert importlib.import_module("cuatrola_site").celery_app.main == "cuatrola"


def test_there_is_exactly_one_beat():
    assert SERVICES["beat"]["deploy"]["replicas"] == 1
    assert sum(1 for s in SERVICES.values() if "beat" in s.get("command", [])) == 1


def test_the_migrate_step_migrates_and_seeds():
    script = " ".join(SERVICES["migrate"]["command"])
    assert "manage.py migrate" in script
    assert "manage.py seed" in script


def test_every_variable_in_the_env_example_is_read_by_the_settings_or_compose():
    settings_source = (ROOT / "cuatrola_site" / "settings.py").read_text()
    accounts_source = (ROOT / "accounts" / "apps.py").read_text()
    compose_source = (ROOT / "docker-compose.yml").read_text()
    names = re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", (ROOT / ".env.example").read_text(), re.M)
    assert names
    for name in names:
        assert f'"{name}"' in settings_source + accounts_source or name in compose_source, name


def test_the_dockerfile_installs_from_the_lock_file_without_dev_tools():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "uv sync --frozen --no-dev" in dockerfile
    assert "FROM python:3.13" in dockerfile
    assert "collectstatic" in dockerfile


def test_the_settings_read_the_variables_compose_sets():
    assert hasattr(settings, "REDIS_URL")
    for name in ("DATABASE_URL", "REDIS_URL"):
        assert f'"{name}"' in (ROOT / "cuatrola_site" / "settings.py").read_text()


def test_daphne_never_takes_the_client_address_from_a_spoofable_header():
    # `--proxy-headers` makes the leftmost X-Forwarded-For the client address: anyone
    # can set it. The address comes from TRUSTED_PROXY_COUNT instead (docs/operations.md).
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--proxy-headers" not in dockerfile
    assert "--proxy-headers" not in SERVICES["web"]["command"]
