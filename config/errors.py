"""Error replies: the site's own pages, and JSON under the solo play API.

The API's views answer their own errors (games.api); these cover what
happens before or around them (an unknown address, a refused CSRF token, a
bug), so a script talking to the API always gets JSON back.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

API_PREFIX = "/play/api/"

PAGES = {
    400: ("bad_request", _("Bad request"), _("That request could not be read.")),
    403: ("forbidden", _("Not allowed"), _("You cannot do that here.")),
    404: ("not_found", _("Not found"), _("There is no page at this address.")),
    500: (
        "server_error",
        _("Something went wrong"),
        _("The server failed to answer. Try again in a moment."),
    ),
}


def answer(request: HttpRequest | None, status: int, detail: str = "") -> HttpResponse:
    code, title, message = PAGES[status]
    if request is not None and request.path.startswith(API_PREFIX):
        return JsonResponse(
            {"error": code, "message": detail or message}, status=status
        )
    # No request context for a 500: whatever failed may fail again in a
    # context processor; the page needs none.
    context = {"status": status, "title": title, "message": message}
    html = render_to_string("error.html", context, request if status < 500 else None)
    return HttpResponse(html, status=status)


def bad_request(request, exception=None) -> HttpResponse:
    return answer(request, 400)


def forbidden(request, exception=None) -> HttpResponse:
    return answer(request, 403)


def not_found(request, exception=None) -> HttpResponse:
    return answer(request, 404)


def server_error(request) -> HttpResponse:
    return answer(request, 500)


def csrf_failure(request, reason: str = "") -> HttpResponse:
    return answer(request, 403, "the CSRF token is missing or wrong; reload the page")
