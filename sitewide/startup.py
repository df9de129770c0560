"""Read the settings first thing, so a bad value is one line, not a traceback.

manage.py, the ASGI application (daphne) and the Celery app call this before
anything else touches the settings.
"""

import os
import sys

from django.core.exceptions import ImproperlyConfigured


def settings_or_exit() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    try:
        settings.SECRET_KEY  # noqa: B018 (the first access reads the module)
    except ImproperlyConfigured as error:
        sys.exit(f"tiles: bad configuration: {error}")
