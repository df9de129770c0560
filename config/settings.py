"""Settings for Tiles.

Nothing set in the environment gives the embedded setup: SQLite, the in-memory
channel layer and Celery in eager mode, so a fresh machine runs with nothing
but Python and Node. DATABASE_URL (PostgreSQL) and REDIS_URL switch to the
production setup; with DATABASE_URL set, SECRET_KEY must be given and DEBUG
defaults to off.
"""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_str("REDIS_URL")
PRODUCTION = bool(DATABASE_URL)

DEBUG = env_bool("DEBUG", default=not PRODUCTION)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when DATABASE_URL is set")
    # Embedded mode only: a fixed key is fine for a single local machine.
    SECRET_KEY = "embedded-dev-key-not-for-production-0f3c9a7e5b2d4c1e8a6b"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "accounts",
    "games",
    "dailies",
    "rooms",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
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

TEMPLATES = [
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
    DATABASES = {"default": database_from_url(DATABASE_URL)}
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
    {"NAME": f"{_VALIDATORS}.MinimumLengthValidator"},
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

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Pages load one bundle each from static/dist/ (built by `make deps` with
# esbuild from static/js/ and three.js in node_modules; never committed).
STATICFILES_DIRS = [BASE_DIR / "static"]

# HTTPS hardening is on in production; TILES_HTTPS=0 turns it off for servers
# that only speak plain HTTP on loopback (the test suite's daphne processes).
HTTPS = env_bool("TILES_HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
