"""ASGI entry point: HTTP (Django, static files) and websockets (rooms)."""

from django.core.asgi import get_asgi_application

from config.startup import settings_or_exit

settings_or_exit()
django_http = get_asgi_application()

# Imported after Django is set up: these modules import models.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.handshake_refusal import refuse_storms_at_the_door  # noqa: E402
from config.longlived import freeze_start_up  # noqa: E402
from config.restart_close import close_sockets_on_stop  # noqa: E402
from config.websocket_frames import (  # noqa: E402
    close_broken_frames,
    lighter_handshakes,
)
from rooms.limits import AddressLimit  # noqa: E402
from rooms.origin import SameOriginValidator  # noqa: E402
from rooms.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Static files too (ServeStatic, in the middleware): nothing else to run.
        "http": django_http,
        "websocket": SameOriginValidator(
            AddressLimit(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

close_broken_frames()
close_sockets_on_stop()
lighter_handshakes()
refuse_storms_at_the_door()

# Everything loaded so far (Django, the apps, the engine's layouts, the
# channel layer) lives as long as the process: out of the garbage
# collector's sight, a collection only walks what came later. A pause is a
# stall for every socket of the process.
freeze_start_up()
