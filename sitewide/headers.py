"""Permissions-Policy: the browser features no page of Tiles uses are off,
so a script that got in somehow cannot ask for them either. (Django has
the other security headers built in, CSP included, but not this one.)"""

# Everything the pages never ask for. The clipboard and sharing stay
# allowed: the room page copies or shares its invite link.
POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
        "serial",
        "bluetooth",
        "hid",
    )
)


class PermissionsPolicyMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", POLICY)
        return response
