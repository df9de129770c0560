from django.db import models


class Heartbeat(models.Model):
    """The last sign of life of one background process (the rooms' timer,
    a Celery worker, Celery beat), written every few seconds while it runs
    and removed when it stops cleanly. /healthz reads these: in the
    database, so every web process on every host sees every timer and
    worker, in the embedded setup (SQLite) as in production."""

    class Part(models.TextChoices):
        TIMER = "timer"
        WORKER = "worker"
        BEAT = "beat"

    part = models.CharField(max_length=8, choices=Part)
    # host:pid: a restarted process is a new one; a killed one's row stays
    # and grows old (rows a day old are cleared by the next beat).
    process = models.CharField(max_length=200)
    beat_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["part", "process"], name="one_heartbeat_per_process"
            )
        ]

    def __str__(self) -> str:
        return f"{self.part} {self.process} at {self.beat_at:%H:%M:%S}"
