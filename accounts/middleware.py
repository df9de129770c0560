from accounts.devices import remember_device
from accounts.players import remember_guest


class GuestCookieMiddleware:
    """Sends the guest cookie when a view created a new guest Player, and
    the known-device cookie when a request signed in (accounts.devices)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        remember_guest(request, response)
        remember_device(request, response)
        return response
