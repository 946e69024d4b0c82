"""Settings for Cuatrola Online, read from the environment (12-factor).

Unset REDIS_URL and DATABASE_URL give the embedded default: SQLite, the
in-process channel layer and Celery tasks run in-process. Setting them gives
the scaled mode: PostgreSQL, channels-redis, a Redis cache and a Redis broker.
"""

import hashlib
import hmac
from datetime import timedelta
from ipaddress import ip_network
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from celery.schedules import crontab
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from cuatrola_site.env import (
    ImproperlyConfiguredEnv,
    env_bool,
    env_float,
    env_int,
    env_int_list,
    env_list,
    env_str,
    env_url,
)
from ops.errors import init as sentry_init
from ops.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

_DEV_SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"
SECRET_KEY = env_str("SECRET_KEY", default=_DEV_SECRET_KEY if DEBUG else None)
if not DEBUG and (SECRET_KEY == _DEV_SECRET_KEY or len(SECRET_KEY) < 50):
    raise ImproperlyConfiguredEnv("SECRET_KEY must be a random string of at least 50 characters")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
for _origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in _origin:
        raise ImproperlyConfiguredEnv(
            f"CSRF_TRUSTED_ORIGINS entries need a scheme (https://example.com), not {_origin!r}"
        )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "django_htmx",
    "channels",
    "cuatrola_site",
    "ops",
    "accounts",
    "economy",
    "games",
    "leagues",
    "ratings",
    "history",
    "online",
    "daily",
    "social",
    "clubs",
    "coach",
    "fairplay",
    "tournaments",
    "achievements",
    # Last: its catalogue never overrides another app's translation of a shared msgid.
    "notifications",
]

MIDDLEWARE = [
    # First: every later step's log lines carry the request id, and the timing is whole.
    "ops.middleware.RequestMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.middleware.BannedUserMiddleware",
    # The device cookie, set on the answer to a sign-in (accounts.receivers).
    "accounts.middleware.DeviceCookieMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "cuatrola_site.urls"
ASGI_APPLICATION = "cuatrola_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "economy.context_processors.wallet",
                "notifications.context_processors.bell",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------

_database_url = env_url("DATABASE_URL", schemes=("postgres", "postgresql", "sqlite"))
if _database_url:
    try:
        _database = dj_database_url.parse(
            _database_url,
            # Seconds a connection is reused; 0 opens one per request or socket call.
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0),
            conn_health_checks=True,
        )
    except ValueError as error:
        raise ImproperlyConfiguredEnv(
            f"DATABASE_URL is not a valid database URL: {error}"
        ) from None
else:
    _database = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(BASE_DIR / "db.sqlite3")}
if _database["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions serialise writers, the SQLite stand-in for row locks.
    _database["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    _database.setdefault("TEST", {"NAME": BASE_DIR / "test-db.sqlite3"})
# Prepared statements, for the statements that ask for one (ops.sql.run_prepared): the
# table's move path (games/rows.py) and the settlement's rating update; planning each
# new text cost more PostgreSQL CPU than running it.
# Django's own queries bind client-side and are never prepared. 0 behind a pooler in
# transaction mode that does not keep prepared statements.
if _database["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_PREPARED_STATEMENTS", True
):
    _database.setdefault("OPTIONS", {})["prepare_threshold"] = 5
DATABASES = {"default": _database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache, channel layer, Celery broker ----------------------------

REDIS_URL = env_url("REDIS_URL", schemes=("redis", "rediss", "unix"))

if REDIS_URL:
    CACHES = {
        # Django's Redis cache, counting hits and misses for /metrics.
        "default": {"BACKEND": "ops.cache.CountingRedisCache", "LOCATION": REDIS_URL}
    }
    # Redis pub/sub: a group message is one PUBLISH, pushed to every process with a
    # member (frames are never queued; a client that misses one resyncs by `seq`).
    # channels-redis's layer, its publishes pipelined (cuatrola_site/channel_layer.py).
    # Pub/sub channels ignore the database number, so it goes into the prefix.
    _redis_db = urlsplit(REDIS_URL).path.strip("/") or "0"
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "cuatrola_site.channel_layer.PipelinedPubSubChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": env_str("CHANNELS_PREFIX", f"cuatrola{_redis_db}."),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "ops.cache.CountingLocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "Europe/Madrid"
# Faults (docs/operations.md, "Mechanisms"): a task is acknowledged once it has run,
# so one a worker was running when it died (or its pool process was killed) is
# delivered again; every task is idempotent (a bot's move carries the match's version,
# settlements and closes are claimed once). A broker that goes away (a Redis restart)
# is reconnected to for ever, at start-up too: a worker never exits for it.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Celery's Django fixup closes every database connection before and after each task
# unless this is set: a new PostgreSQL backend for every bot move (a tenth of a
# worker's time in the chaos bench). A worker keeps its connection as the web
# processes do: close_old_connections() around each task (cuatrola_site/celery.py)
# closes one that is past DATABASE_CONN_MAX_AGE or broken.
CELERY_DB_REUSE_MAX = 2**62
# kombu's Redis transport, but a worker whose broker restarts while it holds a task
# reconnects instead of stopping (cuatrola_site/broker.py).
if REDIS_URL:
    CELERY_BROKER_TRANSPORT = "cuatrola_site.broker:Transport"
# The embedded default's in-process beat (cuatrola_site/ticker.py); `make run` turns it on.
RUN_EMBEDDED_BEAT = env_bool("RUN_EMBEDDED_BEAT", default=False)
# How often that ticker looks for due entries of the beat schedule (below).
EMBEDDED_BEAT_TICK_SECONDS = env_float("EMBEDDED_BEAT_TICK_SECONDS", 1.0)

# --- Accounts (django-allauth) --------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PRESERVE_USERNAME_CASING = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.USERNAME_VALIDATORS"
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "none")
if ACCOUNT_EMAIL_VERIFICATION not in {"none", "optional", "mandatory"}:
    raise ImproperlyConfiguredEnv(
        "ACCOUNT_EMAIL_VERIFICATION must be none, optional or mandatory, "
        f"not {ACCOUNT_EMAIL_VERIFICATION!r}"
    )
ACCOUNT_RATE_LIMITS_ENABLED = env_bool("ACCOUNT_RATE_LIMITS_ENABLED", default=True)
if not ACCOUNT_RATE_LIMITS_ENABLED:
    ACCOUNT_RATE_LIMITS = False
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"

# Reports one player may file in an hour (and one open report per player and match).
REPORTS_PER_HOUR = env_int("REPORTS_PER_HOUR", 5, minimum=1)

# --- Linked accounts (docs/moderation.md, "Linked accounts") -----------------------

# Each sign-in is recorded with the network it came from and a device cookie, both as
# HMAC-SHA256 with this secret (never the address or the cookie itself). Unset, it is
# derived from SECRET_KEY: HMAC-SHA256(SECRET_KEY, "cuatrola linked accounts"), in hex;
# set it (32 characters or more) so that rotating SECRET_KEY does not cut every link
# (a new secret makes new hashes: the links return as people sign in again).
LINKED_ACCOUNTS_SECRET = (
    env_str("LINKED_ACCOUNTS_SECRET", "")
    or hmac.new(SECRET_KEY.encode(), b"cuatrola linked accounts", hashlib.sha256).hexdigest()
)
if len(LINKED_ACCOUNTS_SECRET) < 32:
    raise ImproperlyConfiguredEnv(
        "LINKED_ACCOUNTS_SECRET must be a random string of at least 32 characters"
    )
# Days a sign-in record is kept; beat deletes older ones each night.
SIGN_IN_KEEP_DAYS = env_int("SIGN_IN_KEEP_DAYS", 90, minimum=1)
# Two accounts are linked when they signed in on the same device (any record kept), or
# both from the same network within the last LINKED_NETWORK_DAYS.
LINKED_NETWORK_DAYS = env_int("LINKED_NETWORK_DAYS", 30, minimum=1)
# The device cookie: a random id, first-party, HttpOnly, SameSite=Lax, Secure under
# HTTPS; set at a sign-in without it, its expiry renewed at every sign-in.
DEVICE_COOKIE_NAME = "cuatrola_device"
DEVICE_COOKIE_DAYS = env_int("DEVICE_COOKIE_DAYS", 400, minimum=1)
# A table's marker of linked accounts is computed once per set of seated players and
# process, and read again after this many seconds (a move asks no query for it).
LINKED_TABLE_MEMO_SECONDS = env_float("LINKED_TABLE_MEMO_SECONDS", 60)

# --- Email ------------------------------------------------------------------

EMAIL_HOST = env_str("EMAIL_HOST", "")
if EMAIL_HOST:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": EMAIL_HOST,
                "port": env_int("EMAIL_PORT", 587, minimum=1),
                "username": env_str("EMAIL_HOST_USER", ""),
                "password": env_str("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", default=True),
                "timeout": 10,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
del EMAIL_HOST  # MAILERS replaces the EMAIL_* settings from Django 6.1 on
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Cuatrola Online <no-reply@cuatrola.local>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Languages and time -----------------------------------------------------

LANGUAGE_CODE = "es"
# Spanish first: the default, and the fallback for a browser that asks for none of these.
LANGUAGES = [
    ("es", _("Spanish")),
    ("en", _("English")),
    ("fr", _("French")),
    ("it", _("Italian")),
    ("ko", _("Korean")),
    ("th", _("Thai")),
]
# The second path re-translates allauth's Spanish with tú (its README says how).
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "cuatrola_site" / "allauth_tu" / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Madrid")
USE_I18N = True
USE_TZ = env_bool("USE_TZ", default=True)
if not USE_TZ:
    raise ImproperlyConfiguredEnv("USE_TZ must stay on: league weeks and bonuses need aware times")

# --- Static files -------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    # Pyodide from the npm registry (package.json, `npm ci`): offline practice.
    ("vendor/pyodide", BASE_DIR / "node_modules" / "pyodide"),
]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Production serves hashed, compressed files collected by collectstatic;
# development and tests serve the files where they lie.
_static_manifest = env_bool("STATIC_MANIFEST", default=not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if _static_manifest
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not _static_manifest
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security -------------------------------------------------------------------

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
CSRF_FAILURE_VIEW = "cuatrola_site.views.csrf_failure"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
_https = env_bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=_https)
SESSION_COOKIE_SECURE = _https
CSRF_COOKIE_SECURE = _https
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if _https else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _https
SECURE_HSTS_PRELOAD = _https
if env_bool("BEHIND_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Reverse proxies of this deployment in front of the web processes, each appending the
# address it saw to X-Forwarded-For: the client is the address the outermost of them
# appended (the TRUSTED_PROXY_COUNT-th from the right); anything left of it may be
# forged. 0 (the default) ignores the header. Every per-address limit (allauth's log-in,
# failed log-in, sign-up and password-reset limits, the admin's log-in through allauth)
# keys on it. The web server leaves the peer address alone (uvicorn runs with
# --no-proxy-headers: its own reading would believe the leftmost, forgeable value).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT

# --- Game timing (PLATFORM.md defaults; overridable per deployment) ----------

# Finished matches per page of a player's history.
HISTORY_PAGE_SIZE = env_int("HISTORY_PAGE_SIZE", 25, minimum=1)
# The player page: months of results and wallet, closed league weeks shown.
PLAYER_PAGE_MONTHS = env_int("PLAYER_PAGE_MONTHS", 12, minimum=1)
PLAYER_PAGE_LEAGUE_WEEKS = env_int("PLAYER_PAGE_LEAGUE_WEEKS", 12, minimum=1)

BOT_MOVE_PAUSE_SECONDS = env_float("BOT_MOVE_PAUSE_SECONDS", 0.8)
TURN_SECONDS_CARD = env_float("TURN_SECONDS_CARD", 30)
TURN_SECONDS_BID = env_float("TURN_SECONDS_BID", 20)
ABANDON_AFTER_SECONDS = env_float("ABANDON_AFTER_SECONDS", 180)
# Absence (PLATFORM.md): a seated player not connected this long after the match
# starts, or who lets this many turns in a row run out, is absent at once (a bot plays
# the seat without waiting out the turn timer). Absent for ABANDON_AFTER_SECONDS, or
# still absent for ABSENT_AT_END_SECONDS when the match ends: abandoned (no coins, XP
# or league points; a loss). A connection lost in the last seconds costs nothing.
ABSENCE_CONNECT_GRACE_SECONDS = env_float("ABSENCE_CONNECT_GRACE_SECONDS", 15)
ABSENCE_AFTER_TIMEOUTS = env_int("ABSENCE_AFTER_TIMEOUTS", 3, minimum=1)
ABSENT_AT_END_SECONDS = env_float("ABSENT_AT_END_SECONDS", 15)
# Each web process vouches for its open table sockets every PRESENCE_HEARTBEAT_SECONDS;
# a seat not vouched for in PRESENCE_STALE_SECONDS (its process died) counts as gone.
PRESENCE_HEARTBEAT_SECONDS = env_float("PRESENCE_HEARTBEAT_SECONDS", 20, minimum=1)
PRESENCE_STALE_SECONDS = env_float("PRESENCE_STALE_SECONDS", 70)
if PRESENCE_STALE_SECONDS < 2 * PRESENCE_HEARTBEAT_SECONDS:
    raise ImproperlyConfiguredEnv(
        "PRESENCE_STALE_SECONDS must be at least twice PRESENCE_HEARTBEAT_SECONDS"
    )
# Each web process with table sockets writes its row (games.WebProcess) every
# WEB_PROCESS_HEARTBEAT_SECONDS; one silent for WEB_PROCESS_STALE_SECONDS died, and the
# table sweep drops its sockets from the seats' counts (docs/operations.md, "Mechanisms").
WEB_PROCESS_HEARTBEAT_SECONDS = env_float("WEB_PROCESS_HEARTBEAT_SECONDS", 5, minimum=0.1)
WEB_PROCESS_STALE_SECONDS = env_float("WEB_PROCESS_STALE_SECONDS", 15)
if WEB_PROCESS_STALE_SECONDS < 2 * WEB_PROCESS_HEARTBEAT_SECONDS:
    raise ImproperlyConfiguredEnv(
        "WEB_PROCESS_STALE_SECONDS must be at least twice WEB_PROCESS_HEARTBEAT_SECONDS"
    )
# A bot-controlled turn not played after the pause plus this is forced by the sweep
# (its task lost with a killed worker): a bot's turn is taken over within the pause +
# BOT_SAFETY_SECONDS + TABLE_SWEEP_SECONDS (0.8 + 3 + 2 s) of its start while the sweep runs.
BOT_SAFETY_SECONDS = env_float("BOT_SAFETY_SECONDS", 3)
TABLE_SWEEP_SECONDS = env_float("TABLE_SWEEP_SECONDS", 2)
# A web process's graceful restart (SIGTERM; ops/shutdown.py): /healthz
# answers 503 this long before its sockets are closed with 4500 (the front door's
# health check, every 2 s, notices meanwhile), and it stops at most this long after
# SIGTERM (docker-compose.yml's stop_grace_period, 20 s, is longer).
SHUTDOWN_NOTICE_SECONDS = env_float("SHUTDOWN_NOTICE_SECONDS", 3)
SHUTDOWN_DRAIN_SECONDS = env_float("SHUTDOWN_DRAIN_SECONDS", 15)
# A seat whose socket a restart closed (4500) is not a no-show for this long: its page
# reconnects at once to another process (games/services/presence.py).
PRESENCE_RECONNECT_GRACE_SECONDS = env_float("PRESENCE_RECONNECT_GRACE_SECONDS", 20)
# A table sweep that last ran longer ago than this (beat, the workers or the database
# were down) gives the time lost back to the turn clocks, absences and presence
# before it times anybody out (games/services/sweep.py).
SWEEP_OUTAGE_SECONDS = env_float("SWEEP_OUTAGE_SECONDS", 6)
if SWEEP_OUTAGE_SECONDS <= TABLE_SWEEP_SECONDS:
    raise ImproperlyConfiguredEnv("SWEEP_OUTAGE_SECONDS must be longer than TABLE_SWEEP_SECONDS")
# "auto": a thread pool when tasks run eagerly (embedded), the Celery `bots` queue otherwise;
# "off": bots move only when the sweep finds their turn expired.
BOT_RUNNER = env_str("BOT_RUNNER", "auto")
if BOT_RUNNER not in {"auto", "thread", "celery", "off"}:
    raise ImproperlyConfiguredEnv("BOT_RUNNER must be auto, thread, celery or off")
BOT_THREADS = env_int("BOT_THREADS", 4, minimum=1)
# Messages one websocket may send: a burst of this many, refilled at this many a
# second (games/sockets/guard.py). Over budget: an error frame; as many refusals in a
# row as the burst: the socket is closed (4429).
SOCKET_MESSAGE_BURST = env_int("SOCKET_MESSAGE_BURST", 20, minimum=1)
SOCKET_MESSAGE_RATE = env_float("SOCKET_MESSAGE_RATE", 5, minimum=0.01)
# A `sync` (the whole state read again) is answered at most once per this many
# seconds per socket; one asked sooner is answered when the time is up (one answer
# for all those asked meanwhile). docs/protocol.md.
SOCKET_SYNC_SECONDS = env_float("SOCKET_SYNC_SECONDS", 1, minimum=0)
# Websockets (table and lobby) open at once, counted across every web process: per
# user, and per client address (as the per-address log-in limits see it, see
# TRUSTED_PROXY_COUNT). One more is refused: closed with 4430 (user) or 4431
# (address). games/fanout/presence.py.
SOCKETS_PER_USER = env_int("SOCKETS_PER_USER", 8, minimum=1)
SOCKETS_PER_ADDRESS = env_int("SOCKETS_PER_ADDRESS", 50, minimum=1)
# Watchers (docs/watching.md): sockets watching one table, and watching sockets one
# user may hold, across every web process. One more is refused: closed with 4434
# (the table's) or 4435 (the user's). Staff are not counted against the table's.
WATCHERS_PER_TABLE = env_int("WATCHERS_PER_TABLE", 200, minimum=1)
WATCH_SOCKETS_PER_USER = env_int("WATCH_SOCKETS_PER_USER", 3, minimum=1)
# Sockets watching one table from one client address (4437): without it, four
# addresses of 50 sockets each (about 17 accounts an address) filled a table's 200.
WATCHERS_PER_ADDRESS_PER_TABLE = env_int("WATCHERS_PER_ADDRESS_PER_TABLE", 5, minimum=1)
# Websocket connection attempts per client address and web process, before any
# authentication: a burst of this many, refilled at this many a second; one more
# is refused during the handshake (HTTP 403). games/sockets/guard.py.
SOCKET_CONNECT_BURST = env_int("SOCKET_CONNECT_BURST", 60, minimum=1)
SOCKET_CONNECT_RATE = env_float("SOCKET_CONNECT_RATE", 2, minimum=0.01)
# ... after being held about this long (half to one and a half times it), so that a
# client retrying at once does it less often. uvicorn sets no time limit on a handshake
# (daphne dropped one after 5 s); the hold stays short (at most 3 s, cuatrola_site/
# checks.py) because each held handshake keeps a connection open here and at the proxy.
SOCKET_CONNECT_HOLD_SECONDS = env_float("SOCKET_CONNECT_HOLD_SECONDS", 2, minimum=0)
# Threads (each with its own database connection) that run a web process's
# websocket database work, moves first and every user in turn (games/sockets/db_threads.py).
# Three by default: with more, the threads contend with the event loop for the GIL
# and a loaded process serves fewer moves (docs/benchmarks.md, "Tables");
# raise it when PostgreSQL is on another machine and its round trips are long.
WEB_DB_THREADS = env_int("WEB_DB_THREADS", 3, minimum=1)
# More threads while a surge of sockets opening waits (games/sockets/db_threads.py).
WEB_DB_SURGE_THREADS = env_int("WEB_DB_SURGE_THREADS", 3, minimum=0)

# --- Economy (PLATFORM.md defaults; shop prices and durations are Product rows) ---

ECONOMY_SIGNUP_BONUS = env_int("ECONOMY_SIGNUP_BONUS", 1000, minimum=0)
ECONOMY_DAILY_BONUS = env_int("ECONOMY_DAILY_BONUS", 50, minimum=0)
ECONOMY_DAILY_BONUS_VIP = env_int("ECONOMY_DAILY_BONUS_VIP", 150, minimum=0)
ECONOMY_DAY_TIME_ZONE = "Europe/Madrid"  # the calendar day of the daily bonus
ECONOMY_LEVEL_STEP_XP = 100  # level n needs STEP*n*(n-1)/2 XP in total
ECONOMY_BOOSTER_MULTIPLIER = "2"  # strings: exact fractions, rounded down once at the end
ECONOMY_VIP_MULTIPLIER = "1.5"
# Online places 1-4: (coins, XP). Friends pays places 1-2 at FRIENDS_RATE, rounded down.
ECONOMY_PLACE_REWARDS = {1: (60, 40), 2: (40, 30), 3: (20, 20), 4: (10, 10)}
ECONOMY_FRIENDS_RATE = "0.5"
ECONOMY_TRANSACTIONS_PER_PAGE = 20

# --- The coach (docs/coach.md) --------------------------------------------------

# Analyses a person may ask for per calendar day (in COACH_DAY_TIME_ZONE); staff and
# an active VIP pass have no limit.
COACH_DAILY_ANALYSES = env_int("COACH_DAILY_ANALYSES", 3, minimum=0)
COACH_DAY_TIME_ZONE = "Europe/Madrid"
# Deals weighed per decision (None: cuatrola.bots.assess.SAMPLES, per kind of decision).
COACH_SAMPLES: int | None = None
# How often the match page asks for the progress of an analysis (htmx polling).
COACH_POLL_SECONDS = env_int("COACH_POLL_SECONDS", 2, minimum=1)
# An analysis "running" for longer than this has lost its worker: asking resumes it.
COACH_STALE_SECONDS = env_int("COACH_STALE_SECONDS", 600, minimum=60)
# "auto": a background thread when tasks run eagerly (embedded), the Celery `bots`
# queue otherwise; "off": nothing runs them (tests call the service).
COACH_RUNNER = env_str("COACH_RUNNER", "auto")
if COACH_RUNNER not in {"auto", "thread", "celery", "off"}:
    raise ImproperlyConfiguredEnv("COACH_RUNNER must be auto, thread, celery or off")
# The bots a practised position is played out against.
COACH_PRACTICE_BOT_LEVEL = "hard"

# --- Weekly league (PLATFORM.md "Weekly league"; docs/league.md) ---------------

LEAGUE_TIME_ZONE = "Europe/Madrid"
# Coins for 1st, 2nd, 3rd of each division. Paid as is: no booster or VIP applies.
LEAGUE_PRIZES = {
    "bronze": (300, 200, 100),
    "silver": (600, 400, 200),
    "gold": (900, 600, 300),
    "diamond": (1500, 1000, 500),
}
LEAGUE_PROMOTION_PERCENT = 20  # of a division's players with points; at least one
LEAGUE_RELEGATION_PERCENT = 20  # rounded down
# The beat schedule (CELERY_BEAT_SCHEDULE below) closes weeks at Monday 00:00 Madrid and
# re-checks every LEAGUE_CLOSE_CATCH_UP_SECONDS.
LEAGUE_CLOSE_CATCH_UP_SECONDS = env_int("LEAGUE_CLOSE_CATCH_UP_SECONDS", 600, minimum=1)
LEAGUE_BOARD_TOP = 10
LEAGUE_BOARD_AROUND = 5
LEAGUE_ARCHIVE_WEEKS_PER_PAGE = 10
LEAGUE_ARCHIVE_STANDINGS_PER_PAGE = 50

# --- Achievements (docs/achievements.md) --------------------------------------

# How often the beat reads the settled matches waiting for achievements.
ACHIEVEMENTS_READ_SECONDS = env_float("ACHIEVEMENTS_READ_SECONDS", 10, minimum=1)

# --- Online play and stake tables (PLATFORM.md defaults) ----------------------

# A queued player not matched with three others within this many seconds gets bots.
ONLINE_BOT_FILL_SECONDS = env_float("ONLINE_BOT_FILL_SECONDS", 20)
ONLINE_BOT_LEVEL = env_str("ONLINE_BOT_LEVEL", "easy")
# How often the periodic sweep runs matchmaking (bot fill) and stake-table timeouts.
ONLINE_SWEEP_SECONDS = env_float("ONLINE_SWEEP_SECONDS", 1)
# Queue rows one matchmaking pass takes at most (the next pass takes the rest).
ONLINE_MATCH_BATCH = env_int("ONLINE_MATCH_BATCH", 400, minimum=4)
# League points of places 1-4 in online and stake matches; halved (rounded down) with a bot.
ONLINE_LEAGUE_POINTS = {1: 20, 2: 14, 3: 8, 4: 4}
ONLINE_BOT_LEAGUE_RATE = "0.5"
STAKE_AMOUNTS = (100, 250, 500, 1000)
# A stake table not full within this many seconds is cancelled and every stake refunded.
STAKE_FILL_SECONDS = env_float("STAKE_FILL_SECONDS", 120)
# Reputation and quitting (docs/fairplay.md, "Reputation and quitting"). Abandoning a
# rated (online) or stake match climbs a ladder: the n-th counted abandonment within
# QUIT_WINDOW_DAYS of the last one makes the player wait QUIT_WAIT_MINUTES[n-1]
# minutes (the last entry past the end; 0: a warning only) before queueing or sitting
# at a stake table again; every QUIT_CLEAN_PER_STEP matches finished cleanly (no
# abandonment, no turn timed out) take one step off. A badge is marked low under
# REPUTATION_LOW_PERCENT.
QUIT_WAIT_MINUTES = env_int_list("QUIT_WAIT_MINUTES", [0, 5, 30, 120, 480, 1440])
QUIT_WINDOW_DAYS = env_int("QUIT_WINDOW_DAYS", 30, minimum=1)
QUIT_CLEAN_PER_STEP = env_int("QUIT_CLEAN_PER_STEP", 3, minimum=1)
REPUTATION_LOW_PERCENT = env_int("REPUTATION_LOW_PERCENT", 80, minimum=0)
# How often the queue and stake-table pages ask the server again (htmx polling); whole seconds.
# Table talk (docs/protocol.md, "Table talk"): per user, at most one message every
# TALK_MIN_SECONDS and TALK_BURST in any TALK_BURST_SECONDS.
TALK_MIN_SECONDS = env_int("TALK_MIN_SECONDS", 2, minimum=0)
TALK_BURST = env_int("TALK_BURST", 5, minimum=1)
TALK_BURST_SECONDS = env_int("TALK_BURST_SECONDS", 30, minimum=1)
# The table's last lines a socket shows when it opens (a `talk_log` frame).
TALK_LOG_LINES = env_int("TALK_LOG_LINES", 50, minimum=0)
# Friends and blocks (docs/social.md): how many players one player may block.
SOCIAL_BLOCKS_MAX = env_int("SOCIAL_BLOCKS_MAX", 50, minimum=1)
# Partners (docs/social.md, "Partners"): standing pairs a player may belong to, and
# "prefer"/"avoid as partner" marks a player may keep.
SOCIAL_PARTNERS_MAX = env_int("SOCIAL_PARTNERS_MAX", 5, minimum=1)
SOCIAL_PARTNER_MARKS_MAX = env_int("SOCIAL_PARTNER_MARKS_MAX", 100, minimum=1)
# Clubs (docs/clubs.md): how many open clubs one player may belong to.
CLUBS_PER_PLAYER_MAX = env_int("CLUBS_PER_PLAYER_MAX", 20, minimum=1)
ONLINE_POLL_SECONDS = env_int("ONLINE_POLL_SECONDS", 1, minimum=1)
# Days a player's seating from the queue is kept (online.QueueSeating: the live view
# reads the last hour); older ones are deleted each night.
QUEUE_SEATING_KEEP_DAYS = env_int("QUEUE_SEATING_KEEP_DAYS", 30, minimum=1)

# --- Ratings (docs/ratings.md) --------------------------------------------------

# A player whose partner abandons a rated match their pair loses keeps their rating,
# unless the two are linked accounts, or this abandonment makes RATING_PAIR_ABANDONMENTS
# (by either of them) within the pair's last RATING_PAIR_ABANDON_MATCHES rated matches
# together (this one included): then they are rated as the match went.
RATING_PAIR_ABANDON_MATCHES = env_int("RATING_PAIR_ABANDON_MATCHES", 10, minimum=1)
RATING_PAIR_ABANDONMENTS = env_int("RATING_PAIR_ABANDONMENTS", 2, minimum=1)
# The most one match moves a provisional player's rating, up or down (0: no cap): a
# newcomer's first loss beside a bot against two easy bots took 1500 to 1230, below
# the easy bots' 1279 (docs/ratings.md, "A first result"). Established players move
# as the model says. `manage.py recompute_ratings` after changing it.
RATING_PROVISIONAL_STEP = env_int("RATING_PROVISIONAL_STEP", 150, minimum=0)

# --- The daily deal (docs/daily.md) ---------------------------------------------

# The secret each day's deals are drawn from (HMAC-SHA256 over the date and the deal's
# number). Unset, it is derived from SECRET_KEY: HMAC-SHA256(SECRET_KEY, "cuatrola daily
# deal"), in hex; set it (32 characters or more) to keep the deals when SECRET_KEY is
# rotated. A day's deals are stored when it is first opened and never drawn again.
DAILY_SECRET = (
    env_str("DAILY_SECRET", "")
    or hmac.new(SECRET_KEY.encode(), b"cuatrola daily deal", hashlib.sha256).hexdigest()
)
if len(DAILY_SECRET) < 32:
    raise ImproperlyConfiguredEnv("DAILY_SECRET must be a random string of at least 32 characters")
DAILY_TIME_ZONE = "Europe/Madrid"  # the calendar day of the daily deal
DAILY_BOT_LEVEL = "hard"  # partner and opponents
# XP for playing the day's six deals through (boosters and VIP multiply it), and the
# coins of the day's top DAILY_PRIZE_PERCENT (rounded down, at least one; never
# multiplied). Paid once, after the day ends.
DAILY_FINISH_XP = env_int("DAILY_FINISH_XP", 25, minimum=0)
DAILY_PRIZE_COINS = env_int("DAILY_PRIZE_COINS", 100, minimum=0)
DAILY_PRIZE_PERCENT = env_int("DAILY_PRIZE_PERCENT", 10, minimum=0)
# The day's ranking page: the top this many, and the viewer's own place.
DAILY_RANKING_TOP = 100
# The provisional standings of the day being played are computed this often; days
# are closed at 00:00 Madrid and checked again every DAILY_CLOSE_CATCH_UP_SECONDS.
DAILY_STANDINGS_SECONDS = env_int("DAILY_STANDINGS_SECONDS", 60, minimum=1)
DAILY_CLOSE_CATCH_UP_SECONDS = env_int("DAILY_CLOSE_CATCH_UP_SECONDS", 600, minimum=1)
# Days of a player's daily history shown on the player page.
DAILY_PLAYER_DAYS = env_int("DAILY_PLAYER_DAYS", 30, minimum=1)
# --- Fair play: the nightly collusion screen (docs/fairplay.md) ------------------------

# Candidate pairs: people who sat together (partners or opponents) at this many rated
# matches or more in the last FAIRPLAY_WINDOW_DAYS.
FAIRPLAY_WINDOW_DAYS = env_int("FAIRPLAY_WINDOW_DAYS", 90, minimum=1)
FAIRPLAY_MIN_TOGETHER = env_int("FAIRPLAY_MIN_TOGETHER", 10, minimum=2)
# The analysis of lucky guesses a night: at most this many new matches of a pair and
# in all, this many sampled for the baseline, and no new match past this many seconds.
FAIRPLAY_PAIR_MATCHES_PER_NIGHT = env_int("FAIRPLAY_PAIR_MATCHES_PER_NIGHT", 10, minimum=1)
FAIRPLAY_MATCHES_PER_NIGHT = env_int("FAIRPLAY_MATCHES_PER_NIGHT", 400, minimum=0)
FAIRPLAY_BASELINE_MATCHES_PER_NIGHT = env_int("FAIRPLAY_BASELINE_MATCHES_PER_NIGHT", 40, minimum=0)
FAIRPLAY_NIGHT_SECONDS = env_int("FAIRPLAY_NIGHT_SECONDS", 1500, minimum=1)
# Deals the seat's knowledge is judged on (the coach's search; docs/coach.md).
FAIRPLAY_SAMPLES = env_int("FAIRPLAY_SAMPLES", 100, minimum=10)
# A close decision: cards within FAIRPLAY_NEAR_EQUAL expected match points of the best by
# the seat's knowledge, which the whole deal puts FAIRPLAY_APART_POINTS card points apart
# (hands decided on points) or FAIRPLAY_APART_TRICKS match points (trick contracts).
FAIRPLAY_NEAR_EQUAL = env_float("FAIRPLAY_NEAR_EQUAL", 0.2)
FAIRPLAY_APART_POINTS = env_float("FAIRPLAY_APART_POINTS", 20)
FAIRPLAY_APART_TRICKS = env_float("FAIRPLAY_APART_TRICKS", 1)
# The baseline: rating bands this wide, from the last FAIRPLAY_BASELINE_DAYS of sampled
# matches; a band with fewer close decisions than FAIRPLAY_BASELINE_MIN_DECISIONS takes
# every band's rate (and with fewer in all, lucky guesses are not scored).
FAIRPLAY_BAND_WIDTH = env_int("FAIRPLAY_BAND_WIDTH", 100, minimum=1)
FAIRPLAY_BASELINE_DAYS = env_int("FAIRPLAY_BASELINE_DAYS", 365, minimum=1)
FAIRPLAY_BASELINE_MIN_DECISIONS = env_int("FAIRPLAY_BASELINE_MIN_DECISIONS", 200, minimum=1)
# Flag thresholds: lucky guesses (z-score over at least this many close decisions),
# coins moved at stake tables as opponents (tables, net coins, one-sidedness), results
# beyond the ratings (z-score).
FAIRPLAY_LUCKY_MIN_DECISIONS = env_int("FAIRPLAY_LUCKY_MIN_DECISIONS", 40, minimum=1)
FAIRPLAY_LUCKY_Z = env_float("FAIRPLAY_LUCKY_Z", 3.5)
FAIRPLAY_DUMP_MIN_TABLES = env_int("FAIRPLAY_DUMP_MIN_TABLES", 5, minimum=1)
FAIRPLAY_DUMP_MIN_COINS = env_int("FAIRPLAY_DUMP_MIN_COINS", 1000, minimum=1)
FAIRPLAY_DUMP_ONE_SIDED = env_float("FAIRPLAY_DUMP_ONE_SIDED", 0.8)
FAIRPLAY_WINS_Z = env_float("FAIRPLAY_WINS_Z", 4.0)
# A dismissed pair is opened again when its strength passes the one it was dismissed at
# by this much; a flag shows its newest FAIRPLAY_FLAG_MATCHES matches.
FAIRPLAY_REOPEN_STRENGTH = env_float("FAIRPLAY_REOPEN_STRENGTH", 2.0)
FAIRPLAY_FLAG_MATCHES = env_int("FAIRPLAY_FLAG_MATCHES", 50, minimum=1)
# When beat runs it each night (Europe/Madrid, as the other nightly entries).
FAIRPLAY_SCREEN_HOUR = env_int("FAIRPLAY_SCREEN_HOUR", 3, minimum=0)
if FAIRPLAY_SCREEN_HOUR > 23:
    raise ImproperlyConfiguredEnv("FAIRPLAY_SCREEN_HOUR must be an hour from 0 to 23")

# --- Operating it: logs, metrics, error reporting (docs/operations.md) -------------

# "json": one JSON object a line (production: docker-compose.yml sets it); "text":
# plain lines (`make run`). Both carry the request id; secrets are masked (ops.logs).
LOG_FORMAT = env_str("LOG_FORMAT", "text")
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfiguredEnv(f"LOG_FORMAT must be 'json' or 'text', not {LOG_FORMAT!r}")
LOGGING = logging_config(json_lines=LOG_FORMAT == "json", level=env_str("LOG_LEVEL", "INFO"))
# Celery's worker keeps the site's logging instead of installing its own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Off (0): nothing is counted or timed and /metrics does not exist (the benchmarks'
# "metrics off"; docs/benchmarks.md).
METRICS_ENABLED = env_bool("METRICS_ENABLED", default=True)
# /metrics answers these client addresses or networks only (404 elsewhere). The
# compose file's Prometheus scrapes from its private network.
METRICS_ALLOWED_NETWORKS = tuple(
    ip_network(value, strict=False)
    for value in env_list("METRICS_ALLOWED_NETWORKS", ["127.0.0.1/32", "::1/128"])
)
# A Celery worker serves its metrics on this port (0: none); docker-compose.yml sets it.
WORKER_METRICS_PORT = env_int("WORKER_METRICS_PORT", 0, minimum=0)
# How often beat runs the ledger audit and stores its result (/metrics, live view).
LEDGER_AUDIT_SECONDS = env_int("LEDGER_AUDIT_SECONDS", 6 * 3600, minimum=60)
BEAT_HEARTBEAT_SECONDS = env_int("BEAT_HEARTBEAT_SECONDS", 60, minimum=5)
LIVE_VIEW_REFRESH_SECONDS = env_int("LIVE_VIEW_REFRESH_SECONDS", 30, minimum=5)

# Errors to Sentry only when SENTRY_DSN is set: nothing is initialised, nothing sent
# otherwise. Events carry user ids, no personal data (ops.errors).
SENTRY_DSN = env_str("SENTRY_DSN", "")
SENTRY_ENABLED = sentry_init(
    dsn=SENTRY_DSN,
    environment=env_str("SENTRY_ENVIRONMENT", "production"),
    release=env_str("SENTRY_RELEASE", "") or None,
    traces_rate=env_float("SENTRY_TRACES_SAMPLE_RATE", 0.0),
)

# --- Tournaments (docs/tournaments.md) ----------------------------------------------

# How often beat's tick advances every tournament (registration, rounds, the finish).
TOURNAMENT_TICK_SECONDS = env_int("TOURNAMENT_TICK_SECONDS", 30, minimum=5)
# A team whose two seats are played by bots this long after its game started (within
# this window) did not show (the format scores it).
TOURNAMENT_NO_SHOW_SECONDS = env_int("TOURNAMENT_NO_SHOW_SECONDS", 180, minimum=30)
# The registered players are told this long before registration closes (once).
TOURNAMENT_CLOSING_NOTICE_MINUTES = env_int("TOURNAMENT_CLOSING_NOTICE_MINUTES", 30, minimum=1)

# --- Periodic work --------------------------------------------------------------

# Celery beat's schedule (read through the CELERY_ namespace; the embedded ticker runs
# the same entries). Every period comes from a setting above; crontab times are in
# CELERY_TIMEZONE (Europe/Madrid). cuatrola_site/checks.py refuses absurd periods.
CELERY_BEAT_SCHEDULE = {
    # Settled matches wait in achievements' outbox (one INSERT in the settlement);
    # this reads them (docs/achievements.md).
    "achievements-read-pending": {
        "task": "achievements.read_pending",
        "schedule": float(ACHIEVEMENTS_READ_SECONDS),
        "options": {"expires": float(ACHIEVEMENTS_READ_SECONDS)},
    },
    # Turn time limits and absences live in the database; this sweep enforces them.
    # Expiring with their period: sweeps queued while every worker was down are not
    # run one after another when a worker comes back (the next one does their work).
    "games-sweep-tables": {
        "task": "games.sweep_tables",
        "schedule": float(TABLE_SWEEP_SECONDS),
        "options": {"expires": float(TABLE_SWEEP_SECONDS)},
    },
    # A league week ends at Monday 00:00 Madrid; closing is idempotent, so the
    # catch-up entry is harmless and closes weeks missed while beat was down.
    "leagues-close-week": {
        "task": "leagues.close_due_weeks",
        "schedule": crontab(minute=0, hour=0, day_of_week="monday"),
    },
    "leagues-close-week-catch-up": {
        "task": "leagues.close_due_weeks",
        "schedule": timedelta(seconds=LEAGUE_CLOSE_CATCH_UP_SECONDS),
    },
    # Bot fill after ONLINE_BOT_FILL_SECONDS and stake tables past their fill time.
    "online-sweep": {
        "task": "online.sweep",
        "schedule": float(ONLINE_SWEEP_SECONDS),
        "options": {"expires": float(ONLINE_SWEEP_SECONDS)},
    },
    # A row for every player seated from the queue: those past QUEUE_SEATING_KEEP_DAYS go.
    "online-prune-queue-seatings": {
        "task": "online.prune_queue_seatings",
        "schedule": crontab(minute=30, hour=4),
    },
    # Sign-in records (networks and devices, hashed) past SIGN_IN_KEEP_DAYS go.
    "accounts-prune-sign-ins": {
        "task": "accounts.prune_sign_ins",
        "schedule": crontab(minute=45, hour=4),
    },
    # The ledger's invariants checked, the result stored for /metrics and the live view.
    "economy-audit-ledger": {
        "task": "economy.audit_ledger",
        "schedule": float(LEDGER_AUDIT_SECONDS),
    },
    # Beat's sign of life (an alert fires when it stops).
    "beat-heartbeat": {
        "task": "cuatrola_site.beat_heartbeat",
        "schedule": float(BEAT_HEARTBEAT_SECONDS),
    },
    # A day of the daily deal ends at 00:00 Madrid: final standings, rewards paid once
    # (idempotent, so the catch-up also closes days missed while beat was down).
    "daily-close-days": {"task": "daily.close_due_days", "schedule": crontab(minute=0, hour=0)},
    "daily-close-days-catch-up": {
        "task": "daily.close_due_days",
        "schedule": timedelta(seconds=DAILY_CLOSE_CATCH_UP_SECONDS),
    },
    "daily-standings": {
        "task": "daily.refresh_standings",
        "schedule": float(DAILY_STANDINGS_SECONDS),
    },
    # Tournaments: every step due (idempotent, row-locked: two beats never start a round
    # twice). Expiring with its period, as the sweeps.
    "tournaments-tick": {
        "task": "tournaments.tick",
        "schedule": float(TOURNAMENT_TICK_SECONDS),
        "options": {"expires": float(TOURNAMENT_TICK_SECONDS)},
    },
    # The collusion screen: candidate pairs, lucky guesses, coins, results; flags for
    # staff (docs/fairplay.md). Bounded by its FAIRPLAY_* limits, on the bots queue.
    "fairplay-screen": {
        "task": "fairplay.screen",
        "schedule": crontab(minute=40, hour=FAIRPLAY_SCREEN_HOUR),
    },
}

# --- Notifications and Web Push (docs/notifications.md) -------------------------
# VAPID keys: from the environment, or made once and kept in VAPID_KEY_FILE (PEM, not
# in git), as .secret_key is. VAPID_SUBJECT: a mailto: or https: contact for push services.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:admin@cuatrola.example")
VAPID_KEY_FILE = env_str("VAPID_KEY_FILE", str(BASE_DIR / ".vapid_key"))
# How long a push service keeps an undelivered push (seconds).
NOTIFICATIONS_PUSH_TTL = env_int("NOTIFICATIONS_PUSH_TTL", 3600)
# "A friend started playing" (off by default): at most once a friend in this many hours
# (about one evening's session).
NOTIFICATIONS_FRIEND_PLAYING_HOURS = env_int("NOTIFICATIONS_FRIEND_PLAYING_HOURS", 6, minimum=1)
# The bell on a page without the lobby socket asks for its cached count this often
# (seconds), only while the tab is visible; 0 turns the asking off.
NOTIFICATIONS_BELL_POLL_SECONDS = env_int("NOTIFICATIONS_BELL_POLL_SECONDS", 60, minimum=0)
