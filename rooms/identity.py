"""The Player behind a websocket: the signed-in user's, or the guest whose
cookie the browser sent with the handshake (the cookie the room page set).
Never created here: a socket only serves someone already seated through the
pages."""

from accounts.models import Player
from accounts.players import GUEST_COOKIE, guest_from_cookie_value


def player_for_scope(scope: dict) -> Player | None:
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Player.objects.filter(user=user).first()
    return guest_from_cookie_value(scope.get("cookies", {}).get(GUEST_COOKIE))
