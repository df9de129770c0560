"""The Player behind a websocket: the signed-in user's, or the guest whose
signed cookie the browser sent with the handshake (the same cookie
accounts.players sets on the room page). Never created here: a socket only
serves someone who has already taken a seat through the pages."""

from django.core import signing

from accounts.models import Player
from accounts.players import GUEST_COOKIE, GUEST_COOKIE_AGE, GUEST_COOKIE_SALT


def guest_cookie_value(player: Player) -> str:
    """The cookie value that names `player` (what the pages set)."""
    return signing.get_cookie_signer(salt=GUEST_COOKIE + GUEST_COOKIE_SALT).sign(
        str(player.pk)
    )


def player_for_scope(scope: dict) -> Player | None:
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Player.objects.filter(user=user).first()
    raw = scope.get("cookies", {}).get(GUEST_COOKIE)
    if not raw:
        return None
    signer = signing.get_cookie_signer(salt=GUEST_COOKIE + GUEST_COOKIE_SALT)
    try:
        pk = signer.unsign(raw, max_age=GUEST_COOKIE_AGE)
    except signing.BadSignature:
        return None
    if not pk.isdigit():
        return None
    return Player.objects.filter(pk=int(pk), user__isnull=True).first()
