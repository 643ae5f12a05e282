"""Production: secure cookies and HSTS when served over TLS (set SECURE_SSL=1)."""

from config.env import env_bool, env_int
from config.settings.base import *  # noqa: F401,F403

if env_bool("SECURE_SSL", False):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    # The container's health check calls http://127.0.0.1:8000/healthz inside the TLS proxy.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # One year for every subdomain, eligible for the browsers' preload list (check --deploy W004/W005/W021).
    # Browsers keep it for the whole max-age: serve every subdomain over TLS before turning SECURE_SSL on.
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
