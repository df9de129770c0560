"""Settings for `manage.py` run as a child of a SQLite test: config.settings
with the test's own database file (TILES_TEST_SQLITE) in place of the
developer's var/tiles.sqlite3, which `make run` fills with layouts."""

import os

from config.settings import *  # noqa: F403
from config.settings import DATABASES

DATABASES["default"]["NAME"] = os.environ["TILES_TEST_SQLITE"]  # type: ignore[index]
