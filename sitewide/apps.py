"""App configs: Django's staticfiles under our name, and sitewide."""

from django.apps import AppConfig
from django.contrib.staticfiles.apps import StaticFilesConfig


class StaticFiles(StaticFilesConfig):
    """Django's staticfiles app (collectstatic, hashed names in `{% static %}`),
    listed under this name on purpose: pytest-django's live server serves
    the collected files in STATIC_ROOT, under the hashed names the pages
    ask for, only when "django.contrib.staticfiles" itself is not listed
    (with it, the server looks the unhashed sources up and answers 404)."""


class Sitewide(AppConfig):
    """The site-wide helpers, an app for its management command
    (js_catalogs) and template tags (js_catalog)."""

    name = "sitewide"
    default = True

    def ready(self) -> None:
        from sitewide.request_connections import close_after_each_request

        close_after_each_request()
