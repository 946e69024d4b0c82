"""docker-compose.yml cannot run here (no Docker engine); check what can be checked."""

import importlib
import json
import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings

from tests.web_server import shipped_flags

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
WEB_SERVICES = ("web1", "web2")
WORKER_SERVICES = ("worker", "worker2")
APP_SERVICES = ("migrate", *WEB_SERVICES, *WORKER_SERVICES, "beat")
LOCAL = yaml.safe_load((ROOT / "docker-compose.local.yml").read_text())["services"]


MONITORING = {"prometheus", "grafana"}


def test_the_stack_has_a_proxy_two_webs_postgres_redis_worker_beat_and_a_migrate_step():
    always = {name for name, service in SERVICES.items() if not service.get("profiles")}
    assert always == {"proxy", "postgres", "redis", "migrate", *WEB_SERVICES} | {
        *WORKER_SERVICES,
        "beat",
    }


def test_prometheus_and_grafana_come_with_the_monitoring_profile_only():
    optional = {name for name, service in SERVICES.items() if service.get("profiles")}
    assert optional == MONITORING
    for name in MONITORING:
        assert SERVICES[name]["profiles"] == ["monitoring"]
        # Operators reach them on the machine itself, never from outside.
        assert all(port.startswith("127.0.0.1:") for port in SERVICES[name]["ports"])


def test_prometheus_scrapes_what_the_stack_serves():
    config = yaml.safe_load((ROOT / "deploy/prometheus/prometheus.yml").read_text())
    targets = {
        job["job_name"]: job["static_configs"][0]["targets"] for job in config["scrape_configs"]
    }
    assert targets["web"] == [f"{name}:8000" for name in WEB_SERVICES]
    assert targets["worker"] == [f"{name}:9100" for name in WORKER_SERVICES]
    for name in WORKER_SERVICES:
        worker = SERVICES[name]
        assert worker["environment"]["WORKER_METRICS_PORT"] == "9100"
        assert worker["environment"]["PROMETHEUS_MULTIPROC_DIR"]
        assert "9100" in worker["expose"]
    mounts = SERVICES["prometheus"]["volumes"]
    assert "./deploy/prometheus:/etc/prometheus:ro" in mounts
    for mount in SERVICES["grafana"]["volumes"]:
        source = mount.split(":")[0]
        assert not source.startswith("./") or (ROOT / source).is_dir(), mount


def test_metrics_answer_the_stacks_network_only():
    from ipaddress import ip_network

    subnet = ip_network(COMPOSE["networks"]["default"]["ipam"]["config"][0]["subnet"])
    allowed = ip_network(SERVICES["web1"]["environment"]["METRICS_ALLOWED_NETWORKS"])
    assert allowed == subnet and subnet.is_private
    assert SERVICES["web1"]["environment"]["LOG_FORMAT"] == "json"


@pytest.mark.parametrize("name", APP_SERVICES)
def test_every_app_service_builds_the_one_dockerfile(name):
    assert SERVICES[name]["build"] == "."
    assert (ROOT / "Dockerfile").exists()


@pytest.mark.parametrize("name", ["postgres", "redis", *WEB_SERVICES])
def test_long_running_services_have_healthchecks(name):
    assert SERVICES[name]["healthcheck"]["test"]


@pytest.mark.parametrize("name", [*WEB_SERVICES, *WORKER_SERVICES, "beat"])
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


@pytest.mark.parametrize("name", [*WEB_SERVICES, *WORKER_SERVICES, "beat"])
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
    for name in WORKER_SERVICES:
        assert "inspect ping" in " ".join(SERVICES[name]["healthcheck"]["test"])
    assert "celerybeat-schedule" in " ".join(SERVICES["beat"]["healthcheck"]["test"])
    beat_schedule = SERVICES["beat"]["command"][SERVICES["beat"]["command"].index("--schedule") + 1]
    assert beat_schedule in " ".join(SERVICES["beat"]["healthcheck"]["test"])


def test_the_local_profile_serves_plain_http_on_localhost_through_the_same_proxy():
    assert set(LOCAL) <= {"proxy", *WEB_SERVICES, *WORKER_SERVICES, "beat"}
    # The proxy's own address, no host name: Caddy serves plain HTTP, no certificate.
    assert LOCAL["proxy"] == {"environment": {"SITE_ADDRESS": ":80"}}
    for name in (*WEB_SERVICES, *WORKER_SERVICES, "beat"):
        environment = LOCAL[name]["environment"]
        assert environment["HTTPS"] == "0"
        # Behind the one proxy still, which sets the forwarded headers itself.
        assert environment["BEHIND_PROXY"] == "1" and environment["TRUSTED_PROXY_COUNT"] == "1"
        assert "localhost" in environment["ALLOWED_HOSTS"].split(",")
        assert "http://localhost" in environment["CSRF_TRUSTED_ORIGINS"].split(",")


@pytest.mark.parametrize("name", WEB_SERVICES)
def test_the_web_command_serves_the_asgi_application_with_uvicorn(name):
    command = SERVICES[name]["command"]
    assert command[0] == "uvicorn"
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert command[command.index("--port") + 1] == "8000"
    words = command[1:-1]
    options = {
        word: words[at + 1]
        for at, word in enumerate(words)
        if word.startswith("--") and at + 1 < len(words) and not words[at + 1].startswith("--")
    }
    # What docs/operations.md ("Web server") says of each flag.
    assert options["--ws"] == "websockets-sansio"  # not the deprecated legacy implementation
    assert options["--ws-max-size"] == str(1024 * 1024)  # 1009 over 1 MiB (docs/protocol.md)
    assert options["--ws-per-message-deflate"] == "false"
    assert options["--lifespan"] == "on"  # SIGTERM drains first (cuatrola_site/shutdown.py)
    # Longer than Caddy keeps an idle connection to an upstream (2 min): the proxy
    # closes it first and never sends a request on one uvicorn is closing.
    assert int(options["--timeout-keep-alive"]) > 120
    # The drain (SHUTDOWN_DRAIN_SECONDS, 15) and counting the process off (3 s at most)
    # then uvicorn's own stop fit in the stop grace period (20 s).
    assert 15 + 3 + int(options["--timeout-graceful-shutdown"]) <= 20
    assert "--no-proxy-headers" in command
    module_name, attribute = command[-1].split(":")
    assert hasattr(importlib.import_module(module_name), attribute)


def test_the_image_runs_the_web_command_of_the_stack():
    dockerfile = (ROOT / "Dockerfile").read_text()
    (cmd,) = re.findall(r"^CMD (\[.*\])$", dockerfile, re.M)
    assert json.loads(cmd) == SERVICES["web1"]["command"] == SERVICES["web2"]["command"]


def _published(services: dict) -> dict[str, list]:
    return {name: service["ports"] for name, service in services.items() if "ports" in service}


def test_only_the_proxy_publishes_a_port_and_it_publishes_80_and_443():
    """The web processes are reachable through the proxy alone: whoever could reach
    the web server directly would choose their own X-Forwarded-For and X-Forwarded-Proto."""
    always = {name: service for name, service in SERVICES.items() if not service.get("profiles")}
    assert _published(always) == {"proxy": ["80:80", "443:443", "443:443/udp"]}
    assert _published(LOCAL) == {}  # nor does the local profile add one
    for name in WEB_SERVICES:
        assert SERVICES[name]["expose"] == ["8000"]  # the stack's own network only
        assert "network_mode" not in SERVICES[name]  # ("host" would publish 8000)


def test_the_proxy_runs_the_shipped_caddyfile_in_front_of_both_web_processes():
    proxy = SERVICES["proxy"]
    assert proxy["image"] == "caddy:2"
    assert "./deploy/caddy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert (ROOT / "deploy" / "caddy" / "Caddyfile").exists()
    upstreams = proxy["environment"]["WEB_UPSTREAMS"].split()
    assert upstreams == [f"{name}:8000" for name in WEB_SERVICES]
    assert proxy["environment"]["SITE_ADDRESS"] == "${SITE_ADDRESS:?set SITE_ADDRESS in .env}"
    for name in WEB_SERVICES:
        assert proxy["depends_on"][name]["condition"] == "service_healthy"
    # Certificates survive a restart (the certificate authority limits new ones).
    data = next(v for v in proxy["volumes"] if v.endswith(":/data"))
    assert data.split(":")[0] in COMPOSE["volumes"]


def test_the_env_example_tells_the_truth_about_the_proxy_in_front():
    example = dict(
        re.findall(r"^([A-Z][A-Z0-9_]*)=(.*)$", (ROOT / ".env.example").read_text(), re.M)
    )
    # One proxy (Caddy) in front of the web processes, terminating TLS and setting the headers.
    assert example["BEHIND_PROXY"] == "1" and example["TRUSTED_PROXY_COUNT"] == "1"
    assert example["HTTPS"] == "1"
    host = example["SITE_ADDRESS"]
    assert host in example["ALLOWED_HOSTS"].split(",")
    assert f"https://{host}" in example["CSRF_TRUSTED_ORIGINS"].split(",")


@pytest.mark.parametrize("name", [*WORKER_SERVICES, "beat"])
def test_worker_and_beat_run_the_project_celery_app(name):
    command = SERVICES[name]["command"]
    if command[:2] == ["sh", "-c"]:  # the worker empties its metrics folder first
        command = command[2].split("exec ", 1)[1].split()
    assert command[:3] == ["celery", "--app", "cuatrola_site"]
    assert command[3] == ("worker" if name in WORKER_SERVICES else name)
    assert importlib.import_module("cuatrola_site").celery_app.main == "cuatrola"


def test_there_is_exactly_one_beat():
    assert SERVICES["beat"]["deploy"]["replicas"] == 1
    assert sum(1 for s in SERVICES.values() if "beat" in s.get("command", [])) == 1
    assert not any(
        "beat" in " ".join(s.get("command", []))
        for s in SERVICES.values()
        if s is not SERVICES["beat"]
    )


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


def test_the_env_example_shows_every_daily_deal_setting_read_from_the_environment():
    settings_source = (ROOT / "cuatrola_site" / "settings.py").read_text()
    defaults = dict(
        re.findall(r'env_[a-z_]+\(\s*"(DAILY_[A-Z0-9_]+)",\s*("[^"]*"|[0-9]+)', settings_source)
    )
    read = set(defaults)
    assert "DAILY_SECRET" in read and "DAILY_PRIZE_COINS" in read
    example = (ROOT / ".env.example").read_text()
    shown = set(re.findall(r"^#?\s*(DAILY_[A-Z0-9_]+)=", example, re.M))
    assert read == shown
    # The secret is left to fill in, with how to make one; the rest show their defaults.
    values = dict(re.findall(r"^(DAILY_[A-Z0-9_]+)=(.*)$", example, re.M))
    assert values.pop("DAILY_SECRET") == "" and "secrets.token_urlsafe" in example
    for name, value in values.items():
        assert value == defaults[name], name


def test_the_dockerfile_installs_from_the_lock_file_without_dev_tools():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "uv sync --frozen --no-dev" in dockerfile
    assert "FROM python:3.13" in dockerfile
    assert "collectstatic" in dockerfile


def test_the_image_compiles_its_code_once_at_build_time():
    # With PYTHONDONTWRITEBYTECODE and nothing compiled, every process would compile
    # every module as it starts: seconds before a web process is back after a crash.
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "UV_COMPILE_BYTECODE=1" in dockerfile  # the dependencies, as uv installs them
    copied = dockerfile.index("COPY . .")
    compiled = dockerfile.index("python -m compileall")
    assert compiled > copied  # the site's own code, once it is in the image
    assert dockerfile.index("USER cuatrola") > compiled  # written by root, read-only after


def test_make_keeps_bytecode_whatever_the_machine_sets():
    makefile = (ROOT / "Makefile").read_text()
    assert "unexport PYTHONDONTWRITEBYTECODE" in makefile
    assert "sync --frozen --compile-bytecode" in makefile


def test_the_settings_read_the_variables_compose_sets():
    assert hasattr(settings, "REDIS_URL")
    for name in ("DATABASE_URL", "REDIS_URL"):
        assert f'"{name}"' in (ROOT / "cuatrola_site" / "settings.py").read_text()


def test_the_web_server_never_takes_the_client_address_from_a_spoofable_header():
    # uvicorn's default `--proxy-headers` (for `--forwarded-allow-ips`, 127.0.0.1 by
    # default) replaces the peer with the leftmost X-Forwarded-For: anyone can set it.
    # The site reads the header itself, TRUSTED_PROXY_COUNT from the right
    # (docs/operations.md); uvicorn is told to leave it alone.
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--no-proxy-headers" in dockerfile
    assert "--proxy-headers" not in dockerfile.replace("--no-proxy-headers", "")
    assert "--forwarded-allow-ips" not in dockerfile
    for name in WEB_SERVICES:
        command = SERVICES[name]["command"]
        assert "--no-proxy-headers" in command and "--proxy-headers" not in command
        assert "--forwarded-allow-ips" not in command
        assert "FORWARDED_ALLOW_IPS" not in (SERVICES[name].get("environment") or {})


def test_web_processes_have_time_to_drain_on_a_restart():
    for name in WEB_SERVICES:
        assert SERVICES[name]["stop_grace_period"] == "20s"


def test_the_readme_runs_the_web_processes_as_the_stack_does():
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"^\.venv/bin/uvicorn ((?:.*\\\n)*.*)$", readme, re.M)
    assert found is not None
    words = found.group(1).replace("\\\n", " ").split()
    assert words[-1] == SERVICES["web1"]["command"][-1]
    flags = words[:-1]
    for option in ("--host", "--port"):
        at = flags.index(option)
        del flags[at : at + 2]
    assert flags == shipped_flags()
