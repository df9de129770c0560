"""The built-in layouts' names, marked so makemessages puts them in the
catalogues. Templates translate a layout's name at render time
(`{% translate layout.name %}`); a layout staff made in the admin keeps the
name they gave it."""

from django.utils.translation import gettext_noop

BUILT_IN = [
    gettext_noop("Arrow"),
    gettext_noop("Bridge"),
    gettext_noop("Cascade"),
    gettext_noop("Column"),
    gettext_noop("Durbar Square"),
    gettext_noop("Fortress"),
    gettext_noop("Hourglass"),
    gettext_noop("Kite"),
    gettext_noop("Ladder"),
    gettext_noop("Lantern"),
    gettext_noop("Pagoda"),
    gettext_noop("Pyramid"),
    gettext_noop("Small"),
    gettext_noop("Spider"),
    gettext_noop("Stupa"),
    gettext_noop("Tall Turtle"),
    gettext_noop("Tower"),
    gettext_noop("Turtle"),
    gettext_noop("Vase"),
]
