"""The Celery app. Configured from Django settings (CELERY_* names)."""

from logging.config import dictConfig

from celery import Celery
from celery.signals import setup_logging
from django.conf import settings

from config.startup import settings_or_exit

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
