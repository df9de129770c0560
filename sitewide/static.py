"""Static files under hashed names, compressed once at collectstatic, and
served by daphne itself (ServeStatic, in the middleware)."""

from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from servestatic.middleware import ServeStaticMiddleware
from servestatic.responders import MissingFileError


class StaticFilesMiddleware(ServeStaticMiddleware):
    # A hashed name never changes content: a year, HTTP's customary longest
    # lifetime (ServeStatic's own is ten).
    FOREVER = 60 * 60 * 24 * 365

    async def __call__(self, request: HttpRequest) -> HttpResponseBase:
        # With DEBUG on, ServeStatic raises for a missing file (a 500 with
        # its explanation); a missing file is a 404, the explanation kept
        # for Django's debug 404 page.
        try:
            return await super().__call__(request)
        except MissingFileError as error:
            raise Http404(str(error)) from None
