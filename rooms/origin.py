"""The websocket origin check: only this site's own pages may open a socket.

channels' AllowedHostsOriginValidator compares the Origin's host with
ALLOWED_HOSTS and nothing else, so a page on another port or plain http of
an allowed host passed. Here the Origin must name exactly the site the
handshake was sent to (scheme, host and port, the Host header's), or one of
CSRF_TRUSTED_ORIGINS, as Django's CSRF check does for forms.
"""

from channels.security.websocket import OriginValidator
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def site_origins(scope: dict) -> list[str]:
    """The origins a page of this site has for this handshake."""
    origins = list(settings.CSRF_TRUSTED_ORIGINS)
    host = _header(scope, b"host")
    if host and validate_host(split_domain_port(host)[0], settings.ALLOWED_HOSTS):
        # Pages are served over HTTPS whenever HTTPS is on (SSL redirect),
        # even where a proxy ends TLS and daphne itself sees plain ws.
        secure = settings.HTTPS or scope.get("scheme") == "wss"
        origins.append(f"{'https' if secure else 'http'}://{host}")
    return origins


class SameOriginValidator:
    """ASGI middleware: a handshake from any other origin is refused (403)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        check = OriginValidator(self.application, site_origins(scope))
        return await check(scope, receive, send)
