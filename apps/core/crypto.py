"""Encryption at rest for target passwords (Fernet, key from TIERSCOPE_FERNET_KEY)."""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings


class SecretError(Exception):
    pass


def _fernet() -> Fernet:
    return Fernet(settings.TIERSCOPE_FERNET_KEY)


def encrypt_secret(plain: str) -> str:
    return _fernet().encrypt(plain.encode("utf-8")).decode("ascii")


def decrypt_secret(token: str) -> str:
    if not token:
        return ""
    try:
        return _fernet().decrypt(token.encode("ascii")).decode("utf-8")
    except InvalidToken:
        raise SecretError(
            "The stored target password cannot be decrypted with the current TIERSCOPE_FERNET_KEY "
            "(was the key changed?). Set the password again in the admin."
        ) from None
