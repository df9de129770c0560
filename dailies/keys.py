"""Board keys of the dailies app, as docs/api.md names them."""

from datetime import date

DAILY = "daily"
LEVEL = "level"


def daily_key(day: date, layout_slug: str) -> str:
    return f"{DAILY}:{day.isoformat()}:{layout_slug}"


def level_key(n: int) -> str:
    return f"{LEVEL}:{n}"
