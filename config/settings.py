"""Settings for Tiles.

Nothing set in the environment gives the embedded setup: SQLite, the in-memory
channel layer and Celery in eager mode, so a fresh machine runs with nothing
but Python and Node. DATABASE_URL (PostgreSQL) and REDIS_URL switch to the
production setup: either one needs a real SECRET_KEY and turns DEBUG off
unless it is asked for.
"""

import hashlib
import hmac
import logging
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from servestatic.compress import Compressor

from sitewide.connections import channel_prefix, postgres_options, redis_options
from sitewide.env import database_from_url, env_bool, env_int, env_list, env_str
from sitewide.env import redis_url as env_redis_url
from sitewide.local_network import LocalNetwork
from sitewide.secret import install_key, production_key

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Mode and key (deployment) ---------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_redis_url("REDIS_URL")
PRODUCTION = bool(DATABASE_URL or REDIS_URL)

# DEBUG shows tracebacks to whoever causes one: only when asked for.
DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = (
    production_key(env_str("SECRET_KEY"))
    if PRODUCTION
    # Embedded: SECRET_KEY if given, else this install's own random key.
    else env_str("SECRET_KEY") or install_key(BASE_DIR / "var" / "secret_key")
)
# Dailies and levels are dealt from HMAC(DEAL_SECRET, public seed), so the
# public code cannot deal them early (docs/fair-deals.md). In production it
# defaults to one drawn from SECRET_KEY, which every host shares, so any host
# deals the same board; the embedded install keeps its own in var/.
DEAL_SECRET = env_str("DEAL_SECRET") or (
    hmac.new(SECRET_KEY.encode(), b"tiles deal secret", hashlib.sha256).hexdigest()
    if PRODUCTION
    else install_key(BASE_DIR / "var" / "deal_secret")
)
# ---------------------------------------------------------------------------

# Production names its hosts. The embedded default also lets in phones on
# the same network (`HOST=0.0.0.0 make run`), which open this machine by a
# private address or a `.local` name (sitewide/local_network.py).
ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS",
    ["127.0.0.1", "localhost", "[::1]"] + ([] if PRODUCTION else [LocalNetwork()]),
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # ServeStatic's configuration checks.
    "servestatic",
    # Django's staticfiles app, under a name of our own (sitewide/apps.py).
    "sitewide.apps.StaticFiles",
    "channels",
    "django_ratelimit",
    "accounts",
    "games",
    "dailies",
    "rooms",
    # The site-wide helpers' app: the JavaScript catalogues (sitewide/js_catalog.py).
    "sitewide.apps.Sitewide",
]

MIDDLEWARE = [
    # First: its line and request id cover every reply, redirects included.
    "sitewide.requestlog.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Below the security middleware, so static replies carry its headers.
    "sitewide.static.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.GuestCookieMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

# Django reads its settings as free-form dicts, and so they are typed.
TEMPLATES: list[dict[str, Any]] = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

if DATABASE_URL:
    DATABASES: dict[str, object] = {
        "default": database_from_url(
            DATABASE_URL,
            # PgBouncer and the like in transaction mode (docs/DEPLOY.md).
            transaction_pooler=env_bool("DATABASE_TRANSACTION_POOLER", False),
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "var" / "tiles.sqlite3",
            # A file, not memory, for tests too: daphne test servers run in a
            # child process and must see the same database.
            "TEST": {"NAME": BASE_DIR / "var" / "test-tiles.sqlite3"},
            # IMMEDIATE: an atomic block takes the write lock when it begins,
            # so select_for_update's "one after the other" also holds here
            # (deferred transactions fail with "database is locked" instead).
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
    (BASE_DIR / "var").mkdir(exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Celery: eager (no broker, tasks run in the caller) unless REDIS_URL is set.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
# Hourly, so the next days' dailies exist long before any zone's midnight and
# a newly published layout gets its dailies within the hour.
CELERY_BEAT_SCHEDULE = {
    "prepare-dailies": {"task": "dailies.tasks.prepare_dailies", "schedule": 3600.0},
    "prepare-levels": {"task": "dailies.tasks.prepare_levels", "schedule": 86400.0},
    "forget-idle-rooms": {
        "task": "rooms.tasks.forget_idle_rooms",
        "schedule": 86400.0,
    },
}

_VALIDATORS = "django.contrib.auth.password_validation"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"{_VALIDATORS}.UserAttributeSimilarityValidator"},
    # Django's, its message in the page's digits (accounts/password_help.py).
    {"NAME": "accounts.password_help.MinimumLengthValidator"},
    {"NAME": f"{_VALIDATORS}.CommonPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# The day of the daily deal turns at midnight in this zone.
DAILY_TIME_ZONE = env_str("DAILY_TIME_ZONE", "UTC")

# --- Static files (deployment) ---------------------------------------------
# collectstatic (make run, make test) copies them to STATIC_ROOT under names
# that carry a hash of their content, precompressed (gzip, brotli); daphne
# serves them through ServeStatic with a year's Cache-Control, so a browser
# never asks twice and a deploy can never leave it on old JavaScript.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Pages load one bundle each from static/dist/ (built by `make deps` with
# esbuild from static/js/ and three.js in node_modules; never committed).
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # ServeStatic's, compressing only files it has not compressed before.
    "staticfiles": {"BACKEND": "sitewide.static_storage.CompressedManifestStorage"},
}
# Source maps are for the browser's developer tools alone: 9 MB whose brotli
# copies took most of a cold collectstatic (97 s of CPU). Served as they are.
SERVESTATIC_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")
# Every page names its files through {% static %}, so the unhashed copies
# would be compressed for nothing.
# Old hashed files stay: a page from before a deploy still finds its own.
SERVESTATIC_KEEP_ONLY_HASHED_FILES = True
# ---------------------------------------------------------------------------

# HTTPS hardening is on in production; TILES_HTTPS=0 turns it off for servers
# that only speak plain HTTP on loopback (the test suite's daphne processes).
HTTPS = env_bool("TILES_HTTPS", default=PRODUCTION and not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365

# --- Operations (deployment): health, logs, metrics, errors -----------------
# docs/OPERATIONS.md. /healthz answers any Host (sitewide.health), before
# SecurityMiddleware's HTTPS redirect: a load balancer probes each process
# by its address, over plain HTTP on the private network.
MIDDLEWARE.insert(
    MIDDLEWARE.index("sitewide.requestlog.RequestLogMiddleware") + 1,
    "sitewide.health.HealthByAddress",
)
CSRF_FAILURE_VIEW = "sitewide.errors.csrf_failure"

# Heartbeats of the timer, the Celery worker and beat (the monitoring app):
# each beats every HEARTBEAT_INTERVAL_S; /healthz fails a part whose
# freshest beat is older than HEARTBEAT_STALE_S.
INSTALLED_APPS += ["monitoring"]
HEARTBEAT_INTERVAL_S = env_int("HEARTBEAT_INTERVAL_S", 5)
HEARTBEAT_STALE_S = env_int("HEARTBEAT_STALE_S", 30)
CELERY_BEAT_SCHEDULER = "monitoring.beat.HeartbeatScheduler"

# One line per event: time (UTC), level, logger, request id, message; with
# LOG_FORMAT=json one JSON object a line with the same fields (and the
# traceback in "exc"). Each request is logged once, by sitewide.requestlog
# (daphne's own access log is off where serve.py and deploy/ start it).
# Every process logs through this: daphne, the timer and other management
# commands (Django applies it), Celery's worker and beat (config/celery.py).
LOG_FORMAT = env_str("LOG_FORMAT", "line")
if LOG_FORMAT not in ("line", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be line or json, got {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "sitewide.requestlog.RequestIdFilter"},
        "server_errors_only": {"()": "sitewide.requestlog.ServerErrorsOnly"},
    },
    "formatters": {
        "line": {
            "()": "sitewide.requestlog.UtcFormatter",
            "format": "%(asctime)s.%(msecs)03dZ %(levelname)s %(name)s"
            " [%(request_id)s] %(message)s",
            "datefmt": "%Y-%m-%dT%H:%M:%S",
        },
        "json": {"()": "sitewide.requestlog.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id"],
        }
    },
    "loggers": {
        # Django's own default sends "django" to a console of its own when
        # DEBUG is on: a second copy of each line. Everything goes to root.
        "django": {"handlers": [], "propagate": True},
        "django.request": {"filters": ["server_errors_only"]},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
if LOG_FORMAT == "json":
    # Python's warnings (a library's, Celery's as root) are records too,
    # not free text on stderr between the JSON lines.
    logging.captureWarnings(True)

# Prometheus metrics (monitoring.metrics): each process that has some
# (daphne, the timer) serves them on METRICS_ADDR:METRICS_PORT when the
# port is set, one port per process; loopback unless told otherwise.
METRICS_PORT = env_int("METRICS_PORT", 0)
METRICS_ADDR = env_str("METRICS_ADDR", "127.0.0.1")

# Errors (unhandled in a view, a task, or logged as errors) to Sentry when
# SENTRY_DSN is set; without it sentry-sdk is not even imported.
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    from monitoring.sentry import start_sentry

    start_sentry(
        SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        release=env_str("SENTRY_RELEASE") or None,
    )
# ---------------------------------------------------------------------------

# -- Abuse limits (issue 15): throttles on HTTP (accounts/throttle.py) --------
# Counted in the cache: Redis when REDIS_URL is set, so every daphne process
# counts together; in the embedded setup (one daphne process) its memory.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "tiles",
            # A Redis that hangs (frozen, or its packets dropped) fails a
            # throttle's count in seconds, which then lets the request
            # through (accounts.throttle), rather than holding it forever.
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SILENCED_SYSTEM_CHECKS = [
    # django-ratelimit calls a memory cache unshared: the embedded setup has
    # a single daphne process, so there is nothing to share with.
    *([] if REDIS_URL else ["django_ratelimit.E003"]),
    # Its list of caches predates Django's own Redis cache, whose add and
    # incr are Redis's own atomic commands.
    "django_ratelimit.W001",
    # HSTS preload is off unless SECURE_HSTS_PRELOAD asks (below), on
    # purpose: Django's deploy check would have it on everywhere.
    "security.W021",
]
# "count/period": requests a key may make per window (s, m, h, d; "15m").
THROTTLE_RATES = {
    "sign_in_name": "10/15m",  # tries per user name
    "sign_in": "30/15m",  # tries per address
    "sign_up": "10/h",
    "password_change": "10/15m",  # per signed-in user
    "host": "10/10m",  # rooms hosted per player
    "host_address": "30/h",  # and per address
    "code_guess": "20/10m",  # wrong room codes per address
}

# -- Accounts and headers (issue 15) ---------------------------------------
AUTH_PASSWORD_VALIDATORS += [{"NAME": f"{_VALIDATORS}.NumericPasswordValidator"}]
# Django's own CSP: scripts only from this site (each page loads its bundle
# from static/dist), or an inline one carrying the per-request nonce; no
# 'unsafe-inline' anywhere. connect-src 'self' covers the room sockets.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    # The web app manifest and the service worker (sitewide.install).
    "manifest-src": [CSP.SELF],
    "worker-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
)
MIDDLEWARE.append("sitewide.headers.PermissionsPolicyMiddleware")
TEMPLATES[0]["OPTIONS"]["context_processors"].append(
    "django.template.context_processors.csp"
)
# Preloading is a promise to browsers' built-in lists that is slow to take
# back: only when the deployment says so.
SECURE_HSTS_PRELOAD = HTTPS and env_bool("SECURE_HSTS_PRELOAD", default=False)
# X-Forwarded-Proto says "https" only when a proxy in front sets it (and
# strips any the client sent); otherwise anyone could claim HTTPS.
TRUST_X_FORWARDED_PROTO = env_bool("TRUST_X_FORWARDED_PROTO", default=False)
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if TRUST_X_FORWARDED_PROTO else None
)
# Staff sessions end after 12 hours (accounts/staff_sessions.py).
STAFF_SESSION_AGE = env_int("STAFF_SESSION_AGE", 12 * 60 * 60)

# -- Guests (issue 15) -------------------------------------------------------
CELERY_BEAT_SCHEDULE["forget-empty-guests"] = {
    "task": "accounts.tasks.forget_empty_guests",
    "schedule": 86400.0,
}
# ---------------------------------------------------------------------------

# -- Languages (issue 17) ------------------------------------------------------
# A third language is a line here plus locale/<code>/LC_MESSAGES/*.po (README).
# The header's switch names each language in itself (Django's name_local).
LANGUAGES = [("en", "English"), ("ne", "Nepali")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Django's LocaleMiddleware, but a signed-in player's saved choice comes first
# (accounts/language.py), so it needs request.user: after AuthenticationMiddleware.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
    "accounts.language.PlayerLocaleMiddleware",
)
TEMPLATES[0]["OPTIONS"]["context_processors"].append(
    "django.template.context_processors.i18n"
)
# A guest's choice lives in this cookie for a year (Django's set_language).
LANGUAGE_COOKIE_AGE = SESSION_COOKIE_AGE
LANGUAGE_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SAMESITE = "Lax"

# -- Connections that cannot hang (issue 25; sitewide/connections.py) ----------
# Every socket to PostgreSQL and Redis notices a silent peer within about
# ten seconds, so a cut link fails a request instead of wedging a process.
if DATABASE_URL:
    postgres_options(
        DATABASES["default"]["OPTIONS"],  # type: ignore[index]
        transaction_pooler=env_bool("DATABASE_TRANSACTION_POOLER", False),
    )
if REDIS_URL:
    _redis_cache: dict[str, Any] = CACHES["default"]
    # The cache's own shorter timeouts stay (the throttles above): a
    # throttle that cannot count in two seconds lets the request through.
    _redis_cache["OPTIONS"] = {**redis_options(), **_redis_cache["OPTIONS"]}
    CHANNEL_LAYERS["default"]["CONFIG"] = {
        "hosts": [{"address": REDIS_URL, **redis_options()}],
        # Pub/sub channels ignore Redis's database number: each deployment
        # names its own (sitewide/connections.py).
        "prefix": channel_prefix(REDIS_URL, env_str("CHANNEL_LAYER_PREFIX")),
    }
    CELERY_BROKER_TRANSPORT_OPTIONS = redis_options()
# ---------------------------------------------------------------------------
