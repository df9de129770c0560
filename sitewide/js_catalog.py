"""The JavaScript strings of each language as a static file.

Django's JavaScriptCatalog view writes the script (`django.gettext` and
friends, with the strings of locale/<code>/LC_MESSAGES/djangojs.po); served
by the view it is one more uncached request on every page. `manage.py
js_catalogs` (run by `make deps`, before collectstatic) writes its output for
each language in settings.LANGUAGES into static/dist/i18n/, so the catalogue
gets a hashed name and a year's cache like the page bundles, and base.html
names the page's own with {% js_catalog %}.
"""

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

DIRECTORY = settings.BASE_DIR / "static" / "dist" / "i18n"


def static_path(language: str) -> str:
    """The catalogue's name for {% static %}."""
    return f"dist/i18n/{language}.js"


def catalog_script(language: str) -> bytes:
    """What the JavaScriptCatalog view answers on a page in `language`."""
    with translation.override(language):
        # The view reads the active language, not the request.
        return JavaScriptCatalog().get(HttpRequest()).content


def write_catalogs() -> list[str]:
    """Each language's catalogue, written only where it changed (an
    unchanged file keeps its time, so nothing is collected again for it).
    Returns the languages written."""
    DIRECTORY.mkdir(parents=True, exist_ok=True)
    written = []
    for language, _name in settings.LANGUAGES:
        path = DIRECTORY / f"{language}.js"
        script = catalog_script(language)
        if not path.exists() or path.read_bytes() != script:
            path.write_bytes(script)
            written.append(language)
    return written
