"""Settings for `manage.py` run as a child of a SQLite test: config.settings
with the test's own database file (TILES_TEST_SQLITE) in place of the
developer's var/tiles.sqlite3, which `make run` fills with layouts.

config/settings.py is run from its file rather than imported as
`config.settings`: importing the package `config` first loads its Celery
app, which reads the settings (these, still loading: no SECRET_KEY yet),
and the child exited with "SECRET_KEY must not be empty"."""

import importlib.util
import os
from pathlib import Path
from typing import Any

_file = Path(__file__).resolve().parent.parent / "config" / "settings.py"
_spec = importlib.util.spec_from_file_location("tiles_settings", _file)
assert _spec is not None and _spec.loader is not None
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)
globals().update({name: value for name, value in vars(_base).items() if name.isupper()})

DATABASES: dict[str, Any] = _base.DATABASES
DATABASES["default"]["NAME"] = os.environ["TILES_TEST_SQLITE"]
