"""What offline practice needs in the browser, and the version of that set.

The service worker (`/sw.js`) caches these URLs when someone first visits the
site; its cache is named after `offline_version()`, a hash of the engine and
bots' source and of every cached file's bytes, so a deployment that changes
any of them installs a new service worker, which fills a new cache and drops
the old one (docs/offline.md).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from cuatrola.engine import CARD_CODES

#: The repository's root: the shipped files' paths are relative to it.
ROOT = Path(__file__).resolve().parent.parent

#: The Python shipped to the browser, by path from the root: the engine and the bots
#: (every module of theirs), the frame builder, the game words' catalogue and the
#: practice driver, with the packages that hold them
#: (tests/games/frames/test_offline_practice.py checks that they import nothing else).
PYTHON_PACKAGES = ("cuatrola/engine", "cuatrola/bots")
PYTHON_MODULES = (
    "cuatrola/__init__.py",
    "games/__init__.py",
    "games/frames/__init__.py",
    "games/frames/builder.py",
    "games/words/__init__.py",
    "games/words/catalogue.py",
    "games/frames/offline_practice.py",
)

#: Pyodide's files (from the npm package, served under static/vendor/pyodide/).
PYODIDE_DIR = "vendor/pyodide/"
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: The page's own static files: the card drawings and the live table's renderer
#: (js/table-view.js, css/table.css) among them.
PAGE_STATIC = (
    "css/site.css",
    "css/table.css",
    "css/offline.css",
    "css/cards.css",
    "js/cards.js",
    "js/table-view.js",
    *(f"cards/{code}.svg" for code in CARD_CODES),
    "cards/back.svg",
    "vendor/htmx/htmx-2.0.11.min.js",
    "js/sw-register.js",
    "js/htmx-refusals.js",
    "js/site-nav.js",
    "js/offline.js",
    "js/offline-worker.js",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)


def python_sources() -> dict[str, str]:
    """`{"cuatrola/engine/core.py": source, ...}`: what the worker writes into Pyodide's files."""
    files: dict[str, str] = {}
    for name in PYTHON_MODULES:
        files[name] = (ROOT / name).read_text(encoding="utf-8")
    for package in PYTHON_PACKAGES:
        for path in sorted((ROOT / package).glob("*.py")):
            files[f"{package}/{path.name}"] = path.read_text(encoding="utf-8")
    return files


@cache
def engine_bundle() -> bytes:
    return json.dumps(python_sources(), sort_keys=True, separators=(",", ":")).encode()


@cache
def pyodide_sizes() -> dict[str, int]:
    """Bytes of each Pyodide file by URL, so the progress bar knows the total at once."""
    return {pyodide_url() + name: len(_static_bytes(PYODIDE_DIR + name)) for name in PYODIDE_FILES}


def _static_paths() -> list[str]:
    return list(PAGE_STATIC) + [PYODIDE_DIR + name for name in PYODIDE_FILES]


def _static_bytes(path: str) -> bytes:
    found = finders.find(path)
    if found:
        return Path(found).read_bytes()
    if settings.STATIC_ROOT and (Path(settings.STATIC_ROOT) / path).is_file():
        return (Path(settings.STATIC_ROOT) / path).read_bytes()
    raise FileNotFoundError(
        f"static file {path} is missing (Pyodide comes from `npm ci`: run `make run`)"
    )


def pyodide_url() -> str:
    """Pyodide's directory URL: its loader fetches its files by their plain names there."""
    return settings.STATIC_URL.rstrip("/") + "/" + PYODIDE_DIR if settings.STATIC_URL else ""


def _static_url(path: str) -> str:
    if path.startswith(PYODIDE_DIR):
        return pyodide_url() + path.removeprefix(PYODIDE_DIR)
    return static(path)


@cache
def offline_version() -> str:
    """Hash of everything the cache holds (except the page, which is always refetched online)."""
    digest = hashlib.sha256(engine_bundle())
    for path in _static_paths():
        digest.update(path.encode() + b"\0")
        digest.update(hashlib.sha256(_static_bytes(path)).digest())
    for template in ("games/offline.html", "base.html"):
        digest.update(_template_bytes(template))
    return digest.hexdigest()[:16]


def _template_bytes(name: str) -> bytes:
    from django.template.loader import get_template

    # Django templates have an origin; the stubs type the backend-neutral wrapper.
    return Path(get_template(name).origin.name).read_bytes()  # type: ignore[attr-defined]


def engine_url() -> str:
    return reverse("games:offline_engine") + "?v=" + offline_version()


def page_url() -> str:
    return reverse("games:offline")


def precache_urls() -> list[str]:
    """Every URL the service worker caches on install (the page first)."""
    return [page_url(), engine_url()] + [_static_url(p) for p in _static_paths()]
