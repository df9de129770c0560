"""Celery tasks: make and verify the stored deals ahead of time.

Every task is idempotent: rows are unique per (layout, date) and per level
number, an existing deal is only ever read (never regenerated), and checking
a deal that is already verified does nothing. A database hiccup retries the
whole task with backoff, which is safe for the same reasons.

Run a worker and the beat scheduler next to the web server:

    celery -A config worker --loglevel INFO
    celery -A config beat --loglevel INFO

Without REDIS_URL, Celery runs eagerly and nothing needs to run: the board
resolvers make a missing deal on request with the same functions.
"""

from datetime import timedelta

from celery import shared_task
from django.db import InterfaceError, OperationalError

from dailies import days
from dailies.deals import daily_row, level_row, verify
from dailies.levels import LEVELS
from games.layouts import playable_layouts

RETRY_ON = (OperationalError, InterfaceError)
# As far ahead as commitments are published (/daily/commitments.json).
DAYS_AHEAD = days.COMMITTED_AHEAD


@shared_task(bind=True, autoretry_for=RETRY_ON, retry_backoff=True, max_retries=5)
def prepare_dailies(self, days_ahead: int = DAYS_AHEAD) -> dict:
    """Make and verify today's deal and the next days' for every layout."""
    first = days.today()
    made = unverified = 0
    for layout in playable_layouts():
        for k in range(days_ahead + 1):
            row, new = daily_row(layout.slug, first + timedelta(days=k))
            made += new
            unverified += not verify(row).verified
    return {"from": first.isoformat(), "made": made, "unverified": unverified}


@shared_task(bind=True, autoretry_for=RETRY_ON, retry_backoff=True, max_retries=5)
def prepare_levels(self, first: int = 1, last: int = LEVELS) -> dict:
    """Make sure the level deals exist (all 100 by default), and verify them."""
    made = unverified = 0
    for n in range(first, last + 1):
        row, new = level_row(n)
        made += new
        unverified += not verify(row).verified
    return {"made": made, "unverified": unverified}
