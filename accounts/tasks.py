"""Celery task: forget guests who never kept anything.

A guest Player is made when a visitor first plays, hosts, joins or names
themselves; one who left nothing behind (no run, no best time, no seat in
a room) after a day is a visit that is over, and its row only grows the
table. Beat runs this daily (`CELERY_BEAT_SCHEDULE`); it is idempotent,
and a guest who did something since the cut-off is left alone.
"""

from datetime import datetime, timedelta

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import Player

EMPTY_FOR = timedelta(days=1)


def empty_guests(now: datetime, age: timedelta = EMPTY_FOR) -> QuerySet[Player]:
    """Guests made more than `age` before `now` that own nothing."""
    return Player.objects.filter(
        user__isnull=True,
        created__lt=now - age,
        runs__isnull=True,
        best_times__isnull=True,
        member__isnull=True,
    )


@shared_task(
    bind=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def forget_empty_guests(self) -> int:
    """Delete the empty guests; returns how many went."""
    # By primary key, so the delete itself is not the joined query.
    doomed = list(empty_guests(timezone.now()).values_list("pk", flat=True))
    deleted, _ = Player.objects.filter(pk__in=doomed, user__isnull=True).delete()
    return deleted
