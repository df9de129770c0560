"""Finding the Player behind a request, and folding a guest into an account.

Guests are remembered by a long-lived signed cookie holding their Player's
random guest token (never the row's id), not by the session: the session is
flushed on sign-out, and a guest's best times must stay with the device.
Signed-in players are found through the user. A visitor gets a Player row
only when they do something that needs one (play, host, join, name
themselves): `current_player`; pages that only look use `known_player`.
"""

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.http import HttpRequest, HttpResponse

from accounts.models import Player
from accounts.signals import player_merging

GUEST_COOKIE = "tiles_player"
GUEST_COOKIE_SALT = "accounts.guest"
GUEST_COOKIE_AGE = 60 * 60 * 24 * 365 * 2
# Set on the request when the guest cookie must be sent: a new guest, or an
# old cookie to replace.
_NEW_GUEST = "_tiles_new_guest"
_CACHE = "_tiles_player"


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=GUEST_COOKIE_SALT)


def guest_from_cookie_value(value: str | None) -> Player | None:
    """The guest a raw cookie value names, if it is genuine and still a guest.

    Takes the value rather than a request so websocket consumers, which see
    cookies in their scope, find guests the same way."""
    token = _unsigned(value)
    if token is None:
        return None
    guests = Player.objects.filter(user__isnull=True)
    if token.isdigit():  # a cookie from before tokens: it named the row's id
        return guests.filter(pk=int(token)).first()
    return guests.filter(guest_token=token).first()


def _unsigned(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return _signer().unsign(value, max_age=GUEST_COOKIE_AGE)
    except signing.BadSignature:
        return None


def guest_from_cookie(request: HttpRequest) -> Player | None:
    """The guest this device's cookie names, if it is still a guest. An old
    cookie naming the row's id is replaced by one naming the token."""
    value = request.COOKIES.get(GUEST_COOKIE)
    guest = guest_from_cookie_value(value)
    if guest is not None and (_unsigned(value) or "").isdigit():
        setattr(request, _NEW_GUEST, guest)
    return guest


def known_player(request: HttpRequest) -> Player | None:
    """The Player making this request if there is one yet; never creates
    a guest (a page that only shows things)."""
    cached = getattr(request, _CACHE, None)
    if cached is not None:
        return cached
    if request.user.is_authenticated:
        return Player.objects.filter(user=request.user).first()
    return guest_from_cookie(request)


def current_player(request: HttpRequest) -> Player:
    """The Player making this request, created on first use."""
    cached = getattr(request, _CACHE, None)
    if cached is not None:
        return cached
    user = request.user
    if user.is_authenticated:
        player, _ = Player.objects.get_or_create(
            user=user, defaults={"display_name": user.get_username()[:32]}
        )
    else:
        player = guest_from_cookie(request)
        if player is None:
            player = Player.objects.create()
            setattr(request, _NEW_GUEST, player)
    setattr(request, _CACHE, player)
    return player


def remember_guest(request: HttpRequest, response: HttpResponse) -> None:
    """Send the guest cookie if this request created a guest (or found one
    by an old cookie)."""
    player = getattr(request, _NEW_GUEST, None)
    if player is None:
        return
    response.set_cookie(
        GUEST_COOKIE,
        _signer().sign(player.guest_token),
        max_age=GUEST_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def claim_guest(guest: Player | None, user) -> Player:
    """Give `user` the guest's records; returns the user's Player.

    A user with no Player yet simply becomes the guest (nothing to copy).
    Otherwise every app moves the guest's records to the account through
    `player_merging`, and the guest row is deleted.
    """
    with transaction.atomic():
        target = Player.objects.select_for_update().filter(user=user).first()
        if guest is not None:
            guest = (
                Player.objects.select_for_update()
                .filter(pk=guest.pk, user__isnull=True)
                .first()
            )
        if guest is None:
            if target is None:
                target = Player.objects.create(
                    user=user, display_name=user.get_username()[:32]
                )
            return target
        if target is None:
            guest.user = user
            guest.save(update_fields=["user"])
            return guest
        player_merging.send(sender=Player, source=guest, target=target)
        guest.delete()
        return target
