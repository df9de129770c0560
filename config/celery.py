"""The Celery app. Configured from Django settings (CELERY_* names)."""

from celery import Celery

from config.startup import settings_or_exit

settings_or_exit()

app = Celery("tiles")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
