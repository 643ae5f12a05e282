"""API keys: ``tsk_<prefix>_<secret>``, made, split and checked without Django.

The prefix (8 hex characters) is public: it is stored in clear to find the row, and shown on the pages so a
DBA can tell tokens apart. The secret (32 random bytes, url-safe base64) is shown once, at creation; only its
SHA-256 is kept.

Why a plain SHA-256 and not a password KDF (PBKDF2, Argon2): a KDF slows down guessing a *low-entropy* secret
from a stolen hash. These secrets are 256 random bits, so no guess at all is feasible from the hash, slow
or fast; a KDF would only cost every API request tens of milliseconds of CPU.

>>> key = key_format(prefix="0a1b2c3d", secret="s3cr-t_" + "x" * 36)
>>> key[:20]
'tsk_0a1b2c3d_s3cr-t_'
>>> key_split(key) == ("0a1b2c3d", "s3cr-t_" + "x" * 36)
True
>>> key_split("tsk_0a1b2c3d") is None, key_split("tsk_0a1b2c3d_short") is None
(True, True)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

KEY_PREFIX = "tsk"
PREFIX_HEX_CHARS = 8
SECRET_BYTES = 32
# token_urlsafe(32) is 43 characters of [A-Za-z0-9_-]; a key longer than this is not ours.
_KEY = re.compile(rf"{KEY_PREFIX}_([0-9a-f]{{{PREFIX_HEX_CHARS}}})_([A-Za-z0-9_-]{{43}})")


def key_format(*, prefix: str, secret: str) -> str:
    return f"{KEY_PREFIX}_{prefix}_{secret}"


def key_new() -> tuple[str, str]:
    """A fresh (prefix, secret)."""
    return secrets.token_hex(PREFIX_HEX_CHARS // 2), secrets.token_urlsafe(SECRET_BYTES)


def key_split(key: str) -> tuple[str, str] | None:
    """(prefix, secret) of a well-formed key, else None.

    >>> key_split("tsk_0a1b2c3d_" + "A" * 43)[0]
    '0a1b2c3d'
    """
    match = _KEY.fullmatch(key)
    return (match[1], match[2]) if match else None


def secret_hash(secret: str) -> str:
    """The SHA-256 of the secret, hex (what the database keeps)."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def secret_matches(secret: str, stored_hash: str) -> bool:
    """Whether ``secret`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(secret_hash(secret), stored_hash)
