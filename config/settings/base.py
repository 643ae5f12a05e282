"""Django settings shared by every environment; everything machine-specific comes from env."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from whitenoise.compress import Compressor

from apps.core.config import tunables_from_env
from config.env import env_bool, env_int, env_list, env_secret, env_str
from config.settings.sso import OidcProvider, sso_settings, with_form_action

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = env_secret("SECRET_KEY")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_celery_beat",
    "axes",  # login throttling: AccessAttempt/AccessFailureLog, admin pages, axes_reset* commands
    "csp",
    "auditlog",
    # Single sign-on (docs/sso.md): OpenID Connect through allauth; its tables exist even when no provider is set.
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
    "apps.core",
    "apps.targets",
    "apps.snapshots",
    "apps.tiering",
    "apps.dashboard",
    "apps.metrics",
    "apps.alerts",
    "apps.apitokens",
    # The REST API (docs/api.md) sits on top of every app above; nothing imports it.
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI as static files
    "apps.api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Lets a GET page's reads go to the hot standby when one is configured (apps/core/dbrouter.py).
    "apps.core.middleware.ReplicaReadsMiddleware",
    # Early, so that its header is also on responses other middleware answer with.
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # An API key's user for the body guard below, which runs before DRF authenticates (apps/apitokens).
    "apps.apitokens.middleware.BearerUserMiddleware",
    # Refuses a body the client may not send from its headers, before CsrfViewMiddleware parses it.
    "apps.core.middleware.RequestBodyGuardMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "apps.core.audit.AuditMiddleware",  # auditlog: who (request.user) changed what
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as axes requires: turns a lockout into our lockout page (AXES_LOCKOUT_TEMPLATE).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL"), conn_max_age=env_int("DB_CONN_MAX_AGE", 60), conn_health_checks=True
    )
}
# A hot standby of the same cluster for page reads (docs/scaling.md, "Read replica"; apps/core/dbrouter.py).
if env_str("DATABASE_REPLICA_URL", ""):
    DATABASES["replica"] = dj_database_url.parse(
        env_str("DATABASE_REPLICA_URL"), conn_max_age=env_int("DB_CONN_MAX_AGE", 60), conn_health_checks=True
    )
    # A standby that is down answers "down" within seconds, not after the kernel's connect timeout.
    DATABASES["replica"].setdefault("OPTIONS", {})["connect_timeout"] = env_int("DATABASE_REPLICA_CONNECT_TIMEOUT_S", 2)
DATABASE_ROUTERS = ["apps.core.dbrouter.ReplicaRouter"]
# Pages fall back to the primary when the standby is further behind than this, or down; checked at most this often.
DATABASE_REPLICA_MAX_LAG_S = env_int("DATABASE_REPLICA_MAX_LAG_S", 30)
DATABASE_REPLICA_CHECK_EVERY_S = env_int("DATABASE_REPLICA_CHECK_EVERY_S", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
# Viewers' page bodies, rendered once per state of what they show (apps.dashboard.page_cache, docs/performance.md).
# A Redis that does not answer within the timeouts costs the saving, never the page.
PAGE_CACHE_SECONDS = env_int("TIERSCOPE_PAGE_CACHE_SECONDS", 300)
CACHES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pages": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env_str("TIERSCOPE_PAGE_CACHE_URL", REDIS_URL),
        "KEY_PREFIX": "tierscope",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# axes first: it refuses a locked-out user/address before the password is even checked. Single sign-on
# (config/settings/sso.py, docs/sso.md) adds django-auth-ldap's backend after it when TIERSCOPE_LDAP_URI is
# set, and OpenID Connect providers from TIERSCOPE_OIDC_PROVIDERS; AUTHENTICATION_BACKENDS comes from there.
_sso = sso_settings(os.environ)
globals().update(_sso)  # AUTH_LDAP_* and SOCIALACCOUNT_PROVIDERS, TIERSCOPE_OIDC when configured
AUTHENTICATION_BACKENDS = _sso["AUTHENTICATION_BACKENDS"]
TIERSCOPE_OIDC: dict[str, OidcProvider] = _sso["TIERSCOPE_OIDC"]  # by id; empty when none is configured
# allauth signs up a user only from a provider (auto signup): no local sign-up, no mail, no e-mail login.
ACCOUNT_ADAPTER = "apps.core.sso.LocalAccountAdapter"
SOCIALACCOUNT_ADAPTER = "apps.core.sso.DirectoryAccountAdapter"
SOCIALACCOUNT_AUTO_SIGNUP = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False  # never attach a provider's user to a local account by its e-mail
SOCIALACCOUNT_EMAIL_VERIFICATION = "none"
SOCIALACCOUNT_STORE_TOKENS = False
SOCIALACCOUNT_ONLY = True  # allauth's own local login, sign-up and password pages are not used
ACCOUNT_EMAIL_VERIFICATION = "none"
ACCOUNT_UNIQUE_EMAIL = False
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

LANGUAGE_CODE = "en-us"
# UTC only: a system check (core.E001) refuses anything else.
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / ".data" / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "apps.core.staticfiles.ModuleManifestStaticFilesStorage"},
}
# Source maps are fetched only by a browser's developer tools: served as they are, not brotli- and gzip-compressed
# by collectstatic, which halves its time (median 47.5 s to 22.9 s here: the vendored maps are 7 MB, kept twice).
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# Uploads (AWR reports, extracts) are bounded: bodies by role in apps.core.middleware, each file by
# apps.core.uploads while it streams in (files past 2.5 MB go to a temp file, not memory).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2621440
FILE_UPLOAD_HANDLERS = [
    "apps.core.uploads.SizeLimitUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# Login throttling (django-axes; README "Security"). A username and address pair is locked out after
# AXES_FAILURE_LIMIT failures in a row for AXES_COOLOFF_TIME after the last one; per pair, so a viewer
# guessed at from one address never locks the admin out, nor the viewer from elsewhere.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_ENABLE_ACCESS_FAILURE_LOG = True  # every failure with address and time, not only the counter
AXES_SENSITIVE_PARAMETERS: list[str] = []  # log user and address (axes masks them by default; passwords always)
AXES_CLIENT_IP_CALLABLE = "apps.core.clientip.client_ip"
# API tokens (docs/api-tokens.md): a key lives TIERSCOPE_API_TOKEN_DAYS (90) unless its creator says otherwise,
# never more than TIERSCOPE_API_TOKEN_MAX_DAYS (365). An address that presents TIERSCOPE_API_TOKEN_FAILURE_LIMIT
# bad keys (10), each within the cool-off of the one before, is refused any key for
# TIERSCOPE_API_TOKEN_COOLOFF_S (900 s); counted in Redis so every web worker sees the same count.
TIERSCOPE_API_TOKEN_DAYS = env_int("TIERSCOPE_API_TOKEN_DAYS", 90)
TIERSCOPE_API_TOKEN_MAX_DAYS = env_int("TIERSCOPE_API_TOKEN_MAX_DAYS", 365)
TIERSCOPE_API_TOKEN_FAILURE_LIMIT = env_int("TIERSCOPE_API_TOKEN_FAILURE_LIMIT", 10)
TIERSCOPE_API_TOKEN_COOLOFF_S = env_int("TIERSCOPE_API_TOKEN_COOLOFF_S", 15 * 60)
# The REST API (apps/api) authenticates by API token first: its 401 carries "WWW-Authenticate: Bearer", which
# DRF takes from the first class (a session-only failure would be a 403).
# Reverse proxies in front of gunicorn that append to X-Forwarded-For; 0 = use REMOTE_ADDR, ignore the header.
TIERSCOPE_PROXY_COUNT = env_int("TIERSCOPE_PROXY_COUNT", 0)
# /metrics (docs/prometheus.md): a bearer token (or *_FILE) and/or addresses allowed to scrape; neither: off.
TIERSCOPE_METRICS_TOKEN = env_secret("TIERSCOPE_METRICS_TOKEN") if (
    os.environ.get("TIERSCOPE_METRICS_TOKEN") or os.environ.get("TIERSCOPE_METRICS_TOKEN_FILE")) else ""
TIERSCOPE_METRICS_ALLOW = env_list("TIERSCOPE_METRICS_ALLOW")
TIERSCOPE_METRICS_STATEMENT_TIMEOUT_MS = env_int("TIERSCOPE_METRICS_STATEMENT_TIMEOUT_MS", 5000)

# Mail, for password reset only: without EMAIL_HOST the reset pages are not served (config/urls.py).
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "tierscope@localhost")
PASSWORD_RESET_ENABLED = env_bool("PASSWORD_RESET_ENABLED", bool(EMAIL_HOST))

# Content-Security-Policy (django-csp 4): scripts and styles from our own static files only, no inline
# code (templates load static/js/*; Chart.js styles its canvas from script, which CSP allows).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],  # the empty data: favicon in base.html
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# The OpenID Connect providers' origins, when set (config/settings/sso.py).
CONTENT_SECURITY_POLICY = with_form_action(CONTENT_SECURITY_POLICY, _sso["TIERSCOPE_SSO_FORM_ACTION"])

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True

# Key for target passwords at rest (Fernet). Rotating it: see README.
TIERSCOPE_FERNET_KEY = env_secret("TIERSCOPE_FERNET_KEY")

# The audit log (apps/core/audit.py): auditlog's entry plus who and which target, as text.
AUDITLOG_LOGENTRY_MODEL = "core.AuditLogEntry"
# A foreign key's change reads "tier: fast disk → flash", not primary keys.
AUDITLOG_USE_FK_STRING_REPRESENTATION = True
# auditlog's one model is swapped out for ours: its migrations would still create the unused
# auditlog_logentry table, whose foreign key to django_content_type breaks `flush` (transactional tests).
MIGRATION_MODULES = {"auditlog": None}

# App tunables in one dict, read through apps.core.config.get_config(): their defaults are there, what the
# environment sets (TIERSCOPE_<NAME>) is here.
TIERSCOPE: dict[str, object] = tunables_from_env(os.environ)
# The admin user `bootstrap` creates (apps.core.services): a password from the environment is never printed;
# without one, a generated one is printed once. The stack's data directory (`make run`, scripts/dev/stack.sh).
TIERSCOPE_ADMIN_USER = env_str("TIERSCOPE_ADMIN_USER", "admin")
TIERSCOPE_ADMIN_PASSWORD = env_str("TIERSCOPE_ADMIN_PASSWORD", "")
TIERSCOPE_DATA_DIR = Path(env_str("TIERSCOPE_DATA_DIR", str(BASE_DIR / ".data")))

# Everything to stderr, which the process's supervisor keeps: supervisord in .data/log/ under make run,
# docker compose's log driver, journald under systemd. django.request (500 tracebacks) and the apps.*
# loggers propagate here; Django's own console handler writes only with DEBUG on.
# The app's own loggers (apps.*) from LOG_LEVEL (INFO); libraries from LIBRARY_LOG_LEVEL (WARNING), so a
# library's INFO line (django-axes announces its version at every start) never reaches a management
# command's stderr, where a script reads only the command's own messages. The worker and beat set their
# own level on the root logger (celery's --loglevel), so their logs keep the libraries' INFO lines.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LIBRARY_LOG_LEVEL", "WARNING")},
    "loggers": {"apps": {"level": env_str("LOG_LEVEL", "INFO")}, "config": {"level": env_str("LOG_LEVEL", "INFO")}},
}

from config.settings.api import *  # noqa: E402,F401,F403  (REST_FRAMEWORK, SPECTACULAR_SETTINGS)
from config.settings.celery import *  # noqa: E402,F401,F403  (CELERY_* settings live in one file)
