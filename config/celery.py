"""The Celery app. Configured from Django settings (CELERY_* names)."""

import logging
from logging.config import dictConfig

from celery import Celery
from celery.signals import setup_logging
from django.conf import settings

from sitewide.startup import settings_or_exit

settings_or_exit()

app = Celery("tiles")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def log_as_the_site_does(**kwargs: object) -> None:
    """The worker and beat log through the settings' LOGGING, like every
    other process (the line format or LOG_FORMAT=json), instead of Celery's
    own format: with a receiver of this signal Celery configures no logging
    of its own. Their --loglevel gives way to LOG_LEVEL."""
    dictConfig(settings.LOGGING)
    # The worker prints its shutdown notices ("worker: Warm shutdown")
    # straight to the terminal: here they are log records like the rest.
    # (The banners of the worker and beat are left out with `celery
    # --quiet`, as deploy/ and scripts/serve.py start them.) A signal
    # handler runs in the main thread and the log handler's lock is
    # reentrant: this cannot deadlock. Imported here, in a worker or beat
    # only: a web process has no use for the worker's modules (0.8 s).
    import celery.apps.worker

    celery.apps.worker.safe_say = _say


def _say(message: str, f: object = None) -> None:
    logging.getLogger("celery.apps.worker").info(message)
