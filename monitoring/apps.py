from django.apps import AppConfig


class MonitoringConfig(AppConfig):
    """What an operator watches: heartbeats of the background processes
    (read by /healthz), Prometheus metrics and error reports to Sentry."""

    name = "monitoring"

    def ready(self) -> None:
        # The worker's heartbeat lives as long as the worker: Celery's
        # signals say when (they fire in a worker process only).
        from celery.signals import worker_ready, worker_shutdown

        from monitoring import heartbeats

        worker_ready.connect(heartbeats.worker_started, dispatch_uid="hb.worker")
        worker_shutdown.connect(heartbeats.worker_stopped, dispatch_uid="hb.stop")
