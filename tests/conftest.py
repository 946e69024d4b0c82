"""The suite's shared set-up: service gates and the cast of users.

Tests marked `postgres` or `redis` need the real service. Without it they are
skipped with a visible reason; with REQUIRE_SERVICES=1 (CI) a missing
service fails them instead, so CI can never pass by skipping. `browser` tests
need Debian's Chromium at /usr/bin/chromium, `caddy` tests Debian's Caddy at
/usr/bin/caddy (the stack's front door), and `fonts` tests fonts that draw
Korean, Thai and emoji (Debian's fonts-noto-cjk, fonts-thai-tlwg and
fonts-noto-color-emoji); all are gated
the same way.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

import pytest
from django.conf import settings

from tests import db_flush

CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CADDY_PATH = os.environ.get("CADDY_PATH", "/usr/bin/caddy")


def _services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "") == "1"


KOREAN_AND_THAI = ("ko", "th")


@functools.cache
def _fonts_missing() -> list[str]:
    """The languages of KOREAN_AND_THAI that no installed font covers (fontconfig)."""
    if shutil.which("fc-list") is None:
        return list(KOREAN_AND_THAI)
    missing = [
        language
        for language in KOREAN_AND_THAI
        if not subprocess.run(
            ["fc-list", f":lang={language}", "family"], capture_output=True, text=True
        ).stdout.strip()
    ]
    # The table talk's emoji reactions (fonts-noto-color-emoji).
    emoji = subprocess.run(
        ["fc-list", ":family=Noto Color Emoji", "family"], capture_output=True, text=True
    )
    if not emoji.stdout.strip():
        missing.append("emoji")
    return missing


def _missing_service(marker: str) -> str | None:
    if marker == "postgres":
        if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
            return "needs PostgreSQL: set DATABASE_URL=postgres://…"
    elif marker == "redis":
        if not settings.REDIS_URL:
            return "needs Redis: set REDIS_URL=redis://…"
    elif marker == "browser" and shutil.which(CHROMIUM_PATH) is None:
        return f"needs Chromium at {CHROMIUM_PATH} (apt-get install chromium)"
    elif marker == "caddy" and shutil.which(CADDY_PATH) is None:
        return f"needs Caddy at {CADDY_PATH} (apt-get install caddy)"
    elif marker == "fonts" and _fonts_missing():
        missing = " and ".join(_fonts_missing())
        return (
            f"needs fonts for {missing} "
            "(apt-get install fonts-noto-cjk fonts-thai-tlwg fonts-noto-color-emoji)"
        )
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in ("postgres", "redis", "browser", "caddy", "fonts"):
        if item.get_closest_marker(marker) is None:
            continue
        reason = _missing_service(marker)
        if reason is None:
            continue
        if _services_required():
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, emptied after each transactional test by
    `db_flush.empty` (Django's flush, quicker: tests/db_flush.py)."""
    with django_db_blocker.unblock():
        db_flush.remember()
    db_flush.install()


@pytest.fixture
def password() -> str:
    return "a-Long-and-unusual-passphrase-42"


@pytest.fixture
def make_user(db, password):
    """Creates users with a usable password; names and emails follow the username."""
    from accounts.models import User

    def make(username: str = "ana", **extra) -> User:
        extra.setdefault("email", f"{username.lower()}@example.com")
        return User.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def player(make_user):
    return make_user("ana")


@pytest.fixture
def stranger(make_user):
    return make_user("zoe")


@pytest.fixture
def staff_user(make_user):
    return make_user("staffer", is_staff=True, is_superuser=True)


@pytest.fixture(autouse=True)
def _no_connection_left_in_asgirefs_sync_thread():
    """channels' test communicators switch channels' close_old_connections off while
    the application runs (channels/testing/application.py), so the session and user
    lookups of AuthMiddlewareStack (channels' database_sync_to_async, run in asgiref's
    one thread for sync code) leave that thread's connection open. Closed after each
    test: left open by the run's last such test, it kept the test database from being
    dropped ("being accessed by other users")."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    executor = SyncToAsync.single_thread_executor
    if executor._threads:  # never started by this run's tests yet: nothing to close
        executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A test client's request leaves its language active in the thread (Django's
    LocaleMiddleware never deactivates it): a later test reading a lazy message then
    read it in that language, and failed only after some other tests had run."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate-limit counters, cached pages, the tables' linked pairs and the tournament
    pages' cores (a process's memos) must not leak from one test to the next."""
    from django.core.cache import cache

    from games.frames.live import linked_memo_clear
    from tournaments.selectors import core_memo_clear

    cache.clear()
    linked_memo_clear()
    core_memo_clear()
    yield
    cache.clear()
    linked_memo_clear()
    core_memo_clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Real hashing costs ~0.3 s a login; the suite checks behaviour, not hash strength.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_web_process_beat_remembered():
    """A web process skips writing its row on a socket's connect when it wrote it
    moments ago (games/services/presence.py, `web_process_beat`); a test's database
    starts empty, so the memory of another test's write is dropped."""
    from games.services import presence

    presence._beaten.clear()
    yield
    presence._beaten.clear()
