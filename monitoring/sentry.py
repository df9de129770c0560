"""Error reports to Sentry (sentry-sdk), started by the settings when
SENTRY_DSN is set, in every process that reads them: daphne, the timer
and other management commands, Celery's worker and beat.

What is sent: unhandled exceptions in views and consumers (the Django
integration), failed tasks (the Celery integration), and records logged at
ERROR (the logging integration, on by default). No personal data (no
cookies, no addresses, no user names: send_default_pii stays off).
"""

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.logging import ignore_logger


def start_sentry(dsn: str, *, environment: str, release: str | None) -> None:
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        # Errors only: tracing every request would cost each one.
        traces_sample_rate=0.0,
    )
    # The request line of a 5xx is logged at ERROR: the error itself is
    # already an event (the view's exception), and a failing /healthz,
    # probed every few seconds, is for the load balancer, not Sentry.
    ignore_logger("tiles.request")
