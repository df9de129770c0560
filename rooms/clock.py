"""The rooms' clock: every change reads the time here, never from a client."""

from datetime import UTC, datetime


def current_time() -> datetime:
    """The server's clock, in UTC as Django's timezone.now() gives it (the
    settings keep USE_TZ on); tests replace it to drive rooms through time."""
    return datetime.now(UTC)
