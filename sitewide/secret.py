"""The SECRET_KEY: the operator's in production, a random one per install
in the embedded mode.

Whoever knows the key can sign a guest cookie for any player, so no key may
come from the repository: the embedded mode makes its own under var/ on
first start, and production refuses to start without a real one.
"""

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

# The same bar as Django's own `check --deploy` (security.W009).
MIN_LENGTH = 50
MIN_UNIQUE = 5
# Words that mark a key copied from an example rather than generated.
PLACEHOLDERS = ("change-me", "changeme", "replace-me", "django-insecure")
HOW = "make one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def production_key(key: str) -> str:
    """The operator's key, refused with one line when it is missing or weak."""
    if not key:
        raise ImproperlyConfigured(
            f"SECRET_KEY must be set when DATABASE_URL or REDIS_URL is set; {HOW}"
        )
    lowered = key.lower()
    if any(word in lowered for word in PLACEHOLDERS):
        raise ImproperlyConfigured(f"SECRET_KEY is a placeholder; {HOW}")
    if len(key) < MIN_LENGTH or len(set(key)) < MIN_UNIQUE:
        raise ImproperlyConfigured(
            f"SECRET_KEY is too short or too plain (at least {MIN_LENGTH} "
            f"characters, {MIN_UNIQUE} different); {HOW}"
        )
    return key


def install_key(path: Path) -> str:
    """This install's key, made on first use.

    Written to a private temporary file and linked into place: the link
    fails if another process (serve.py starts several at once) got there
    first, and then everyone reads that one key.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(get_random_secret_key())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
        finally:
            temporary.unlink()
    return path.read_text().strip()
