"""Staff sign-ins last a working day, not the year a player's does: a
forgotten admin session on a shared computer is the costly one."""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in


def shorten_staff_session(sender, request, user, **kwargs) -> None:
    if user.is_staff and hasattr(request, "session"):
        request.session.set_expiry(settings.STAFF_SESSION_AGE)


def connect() -> None:
    user_logged_in.connect(shorten_staff_session, dispatch_uid="staff_sessions")
