"""Celery beat's scheduler, with a heartbeat (monitoring.heartbeats).

Beat's loop asks the scheduler for the time to its next task and sleeps
that long (up to beat_max_interval, 5 minutes): here the answer is at most
one heartbeat interval, so the loop turns and beats that often.
"""

from celery.beat import PersistentScheduler
from django.conf import settings

from monitoring.heartbeats import Beater, Part


class HeartbeatScheduler(PersistentScheduler):
    heartbeat: Beater | None = None

    def tick(self, *args, **kwargs) -> float:
        if self.heartbeat is None:
            self.heartbeat = Beater(Part.BEAT)
        self.heartbeat.maybe()
        return min(super().tick(*args, **kwargs), settings.HEARTBEAT_INTERVAL_S)

    def close(self) -> None:
        super().close()
        if self.heartbeat is not None:
            self.heartbeat.stop()
