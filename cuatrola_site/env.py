"""Small helpers that read settings from the environment and fail loudly.

Every helper names the variable in its error, so a bad value stops the
process at start-up with a message the operator can act on.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


class ImproperlyConfiguredEnv(Exception):
    """An environment variable holds a value the site cannot use."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    value = environ.get(name)
    if value is None:
        if default is None:
            raise ImproperlyConfiguredEnv(f"{name} must be set")
        return default
    return value


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    value = environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfiguredEnv(
        f"{name} must be a boolean (1/0, true/false, yes/no), not {value!r}"
    )


def env_int(
    name: str, default: int, environ: Mapping[str, str] = os.environ, minimum: int | None = None
) -> int:
    value = environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name} must be a whole number, not {value!r}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfiguredEnv(f"{name} must be at least {minimum}, not {number}")
    return number


def env_float(
    name: str, default: float, environ: Mapping[str, str] = os.environ, minimum: float = 0.0
) -> float:
    value = environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name} must be a number, not {value!r}") from None
    if number < minimum:
        raise ImproperlyConfiguredEnv(f"{name} must be at least {minimum}, not {number}")
    return number


def env_list(
    name: str, default: list[str] | None = None, environ: Mapping[str, str] = os.environ
) -> list[str]:
    value = environ.get(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int_list(
    name: str, default: list[int], environ: Mapping[str, str] = os.environ, minimum: int = 0
) -> tuple[int, ...]:
    """Comma-separated whole numbers, each at least `minimum`, at least one of them."""
    items = env_list(name, [str(number) for number in default], environ)
    try:
        numbers = tuple(int(item) for item in items)
    except ValueError:
        raise ImproperlyConfiguredEnv(
            f"{name} must be whole numbers separated by commas, not {environ.get(name)!r}"
        ) from None
    if not numbers or any(number < minimum for number in numbers):
        raise ImproperlyConfiguredEnv(
            f"{name} must list at least one whole number, each at least {minimum}"
        )
    return numbers


def env_url(
    name: str, schemes: tuple[str, ...], environ: Mapping[str, str] = os.environ
) -> str | None:
    """A URL with one of the given schemes, or None when unset or empty."""
    value = environ.get(name, "").strip()
    if not value:
        return None
    scheme = value.split("://", 1)[0] if "://" in value else ""
    if scheme not in schemes:
        allowed = ", ".join(f"{s}://" for s in schemes)
        raise ImproperlyConfiguredEnv(f"{name} must start with one of {allowed}, not {value!r}")
    return value
