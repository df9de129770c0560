from django import template
from django.templatetags.static import static
from django.utils.translation import get_language

from sitewide.js_catalog import static_path

register = template.Library()


@register.simple_tag
def js_catalog() -> str:
    """The address of the page's JavaScript catalogue, under its hashed name.
    From the active language, not the context: the 500 page has none."""
    return static(static_path(get_language()))
