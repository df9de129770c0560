"""ASGI entry point: HTTP (Django, static files) and websockets (rooms)."""

from django.core.asgi import get_asgi_application

from sitewide.startup import settings_or_exit

settings_or_exit()
django_http = get_asgi_application()

# Imported after Django is set up: these modules import models.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from accounts.socket_outage import SocketOutage  # noqa: E402
from monitoring import metrics  # noqa: E402
from rooms.consumers import FramesOut  # noqa: E402
from rooms.limits import AddressLimit  # noqa: E402
from rooms.origin import SameOriginValidator  # noqa: E402
from rooms.publish import PublishFromLoop  # noqa: E402
from rooms.routing import websocket_urlpatterns  # noqa: E402
from sitewide.longlived import freeze_start_up  # noqa: E402

# daphne itself is started by sitewide.serve (its websocket frames); a storm
# of handshakes from one address is nginx's to refuse (deploy/nginx).
application = PublishFromLoop(
    ProtocolTypeRouter(
        {
            # Static files too (ServeStatic, in the middleware): nothing else to run.
            "http": django_http,
            "websocket": FramesOut(
                SameOriginValidator(
                    AddressLimit(
                        SocketOutage(
                            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
                        )
                    )
                )
            ),
        }
    )
)

metrics.serve()  # on METRICS_PORT, if set (docs/OPERATIONS.md)

# Everything loaded so far (Django, the apps, the engine's layouts, the
# channel layer) lives as long as the process: out of the garbage
# collector's sight, a collection only walks what came later. A pause is a
# stall for every socket of the process.
freeze_start_up()
