from django import template
from django.utils.html import json_script
from django.utils.translation import gettext

from games.layout_names import BUILT_IN

register = template.Library()


@register.simple_tag
def layout_names() -> str:
    """The built-in layouts' names in the page's language, as a JSON block
    (id "layout-names") for scripts that name layouts (static/js/i18n.js)."""
    return json_script({name: gettext(name) for name in BUILT_IN}, "layout-names")
