"""The web process as the stack runs it: docker-compose.yml's web command (uvicorn and
its flags, docs/operations.md "Web server"), for the tests that start real ones
(tests/cuatrola_site/test_make_run.py, test_front_door.py, test_shutdown.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
UVICORN = Path(sys.executable).with_name("uvicorn")


def shipped_command() -> list[str]:
    """docker-compose.yml's web command, as written there."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return list(compose["services"]["web1"]["command"])


def shipped_flags() -> list[str]:
    """Its flags, without the program, the address it binds and the application."""
    command = shipped_command()
    flags = command[1:-1]
    for option in ("--host", "--port"):
        at = flags.index(option)
        del flags[at : at + 2]
    return flags


def web_command(
    *, fd: int | None = None, host: str = "127.0.0.1", port: int | None = None, extra=()
) -> list[str]:
    """This venv's uvicorn with the shipped flags, on the listening socket `fd` (adopted)
    or on `host`:`port`, and `extra` flags (a test's own: a server name, quieter logs)."""
    command = shipped_command()
    bind = ["--fd", str(fd)] if fd is not None else ["--host", host, "--port", str(port)]
    return [str(UVICORN), *bind, *shipped_flags(), *extra, command[-1]]
