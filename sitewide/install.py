"""Installing the site to a phone's home screen: the web app manifest and
the service worker (static/js/service-worker.js).

Both are answered from fixed addresses at the site root: the worker's scope
is the folder it is served from, so it must not live under /static/; and
neither may be cached for long, since the manifest names the icons by their
hashed names and a worker update must reach the browser on its next check.
The manifest is in the visitor's language (the name and description are
translated), as the pages are.
"""

from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# The site's colours (static/css/site.css: --bg), so the splash screen and
# the browser's bar match the pages.
BACKGROUND = "#1d2b24"
WORKER_SOURCE = settings.BASE_DIR / "static" / "js" / "service-worker.js"


@require_safe
@cache_control(no_cache=True)
def manifest(request: HttpRequest) -> JsonResponse:
    icons = [
        {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        *(
            {
                "src": static(f"icons/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
            }
            for size in (192, 512)
        ),
    ]
    return JsonResponse(
        {
            "name": gettext("Tiles"),
            "short_name": gettext("Tiles"),
            "description": gettext(
                "Mahjong solitaire: clear the pile two free matching tiles at a time."
            ),
            "lang": translation.get_language(),
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
            "id": reverse("home"),
            "start_url": reverse("home"),
            "scope": reverse("home"),
            "display": "standalone",
            "background_color": BACKGROUND,
            "theme_color": BACKGROUND,
            "icons": icons,
        },
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


@cache
def worker_script() -> bytes:
    return WORKER_SOURCE.read_bytes()


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    return HttpResponse(worker_script(), content_type="text/javascript; charset=utf-8")
