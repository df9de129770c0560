"""Celery task: forget rooms nobody has used for days.

A room's rows (seats, rounds, racers' piles, every event) are kept while
it may be played again, but a room idle for a week is not coming back, and
its code is better free for a new room. Beat runs this daily
(`CELERY_BEAT_SCHEDULE`); it is idempotent and safe beside live rooms,
since a room that moved since the cut-off is left alone.
"""

from datetime import datetime, timedelta

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from rooms.models import Event, Room

IDLE_DAYS = 7


def idle_rooms(now: datetime, idle: timedelta) -> QuerySet[Room]:
    """Rooms whose last event (or, with none, whose creation) is older
    than `idle` before `now`."""
    cutoff = now - idle
    # The last event is the one numbered with the room's version: a lookup
    # on the unique (room, version) index, not a scan of the room's events.
    last = Event.objects.filter(room=OuterRef("pk"), version=OuterRef("version"))
    return Room.objects.annotate(
        last_event=Subquery(last.values("created")[:1])
    ).filter(Q(last_event__lt=cutoff) | Q(last_event__isnull=True, created__lt=cutoff))


@shared_task(
    bind=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def forget_idle_rooms(self, idle_days: int = IDLE_DAYS) -> int:
    """Delete rooms idle for `idle_days` with everything in them; returns
    how many rooms went."""
    _, deleted = idle_rooms(timezone.now(), timedelta(days=idle_days)).delete()
    return deleted.get(Room._meta.label, 0)
