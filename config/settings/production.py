"""Production: secure cookies and HSTS when served over TLS (set SECURE_SSL=1)."""

from config.env import env_bool
from config.settings.base import *  # noqa: F401,F403

if env_bool("SECURE_SSL", False):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = 3600
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
