"""Which day it is for the daily deal, and which days are open.

The day turns at midnight in settings.DAILY_TIME_ZONE (not the server's zone,
not the player's), so everybody shares one calendar of deals.
"""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

# Today and the 29 days before it can be played; no streaks, so a missed day
# is simply played later.
OPEN_DAYS = 30


class DayNotOpen(LookupError):
    pass


def today(now: datetime | None = None) -> date:
    """The daily's date at `now` (default: the current time)."""
    zone = ZoneInfo(settings.DAILY_TIME_ZONE)
    return timezone.localtime(now or timezone.now(), zone).date()


def open_days(today: date) -> list[date]:
    """The days that can be played, newest first."""
    return [today - timedelta(days=k) for k in range(OPEN_DAYS)]


def check_open(day: date, today: date) -> None:
    """Raise DayNotOpen unless `day` is one of the open days."""
    if day > today:
        raise DayNotOpen(f"the daily for {day} is not out yet")
    if day <= today - timedelta(days=OPEN_DAYS):
        raise DayNotOpen(
            f"the daily for {day} has closed: only the last {OPEN_DAYS} days "
            "can be played"
        )


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise DayNotOpen(f"{text!r} is not a date (YYYY-MM-DD)") from None
