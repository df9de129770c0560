"""What the owner of an account is told about sign-ins: every sign-in and
every wrong password tried for the account is kept (SignInEvent) for
KEEP_DAYS, and the profile shows the failures since the previous sign-in.

Django's own signals carry both (user_logged_in, user_login_failed), so the
site's sign-in, the admin's and signing up are all covered.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.utils import timezone

from accounts import devices
from accounts.models import SignInEvent

KEEP_DAYS = 90
# The attempts listed one by one on the profile; the count covers all.
LISTED = 10


def _record(user, request, succeeded: bool) -> None:
    known = request is not None and (
        devices.device_nonce(request, user.get_username()) is not None
    )
    now = timezone.now()
    SignInEvent.objects.create(
        user=user, at=now, succeeded=succeeded, known_device=known
    )
    # Kept small as it goes: a few rows a throttle window at most.
    SignInEvent.objects.filter(
        user=user, at__lt=now - timedelta(days=KEEP_DAYS)
    ).delete()


def _signed_in(sender, request, user, **kwargs) -> None:
    if request is None:
        return
    _record(user, request, True)
    devices.signed_in(request, user.get_username())


def _failed(sender, credentials, request=None, **kwargs) -> None:
    # The account the name is for, as Django's ModelBackend finds it; a
    # name with no account has no owner to tell.
    username = credentials.get(get_user_model().USERNAME_FIELD)
    if not isinstance(username, str):
        return
    user = (
        get_user_model()
        ._default_manager.filter(**{get_user_model().USERNAME_FIELD: username})
        .first()
    )
    if user is not None:
        _record(user, request, False)


def connect() -> None:
    user_logged_in.connect(_signed_in, dispatch_uid="accounts.sign_ins.in")
    user_login_failed.connect(_failed, dispatch_uid="accounts.sign_ins.failed")


@dataclass(frozen=True)
class Attempts:
    """The failed sign-ins since `since` (the previous sign-in, None when
    there was none): how many, and the latest LISTED of them."""

    since: datetime | None
    count: int
    latest: list[SignInEvent]


def failed_since_previous(user) -> Attempts:
    events = SignInEvent.objects.filter(user=user)
    # The latest sign-in is the one this visit came with (or one on another
    # device since); the one before is what the owner last saw.
    sign_ins = list(
        events.filter(succeeded=True).order_by("-at").values_list("at", flat=True)[:2]
    )
    since = sign_ins[1] if len(sign_ins) > 1 else None
    failures = events.filter(succeeded=False)
    if since is not None:
        failures = failures.filter(at__gt=since)
    return Attempts(
        since=since,
        count=failures.count(),
        latest=list(failures.order_by("-at")[:LISTED]),
    )
