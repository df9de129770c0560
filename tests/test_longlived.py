"""The server processes start with what they load frozen out of the
garbage collector's walk and their young objects collected at
sitewide.longlived's spacing: the ASGI application daphne serves and the
timer's command both set it up."""

import json
import subprocess
import sys

import pytest
from django.conf import settings

from sitewide.longlived import YOUNG

PROBE = """
import gc, json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
{start}
print(json.dumps({{"young": gc.get_threshold()[0], "frozen": gc.get_freeze_count()}}))
"""


@pytest.mark.parametrize(
    "start",
    [
        "import config.asgi",  # what daphne loads (sitewide.serve)
        "import django; django.setup()\n"
        "from rooms.management.commands import run_timers\n"
        "run_timers.freeze_start_up()",
    ],
    ids=["daphne", "timer"],
)
def test_a_server_process_spaces_out_its_young_collections(start):
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(start=start)],
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        timeout=120,
        check=True,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["young"] == YOUNG > 2000  # Python's default is 2,000 (3.13)
    assert seen["frozen"] > 10_000  # the start-up's objects, frozen
