"""Taking what a server process loads at start out of the garbage
collector's walk.

Everything imported and built while a process starts lives as long as the
process. `gc.freeze()` moves it to a generation the collector never walks,
so a collection (each one a pause for every socket of a daphne process)
only walks what came later. Some modules are imported only on first use:
the channel layer's backend (redis and channels_redis, about 70 modules,
some 20,000 objects) loads when the first socket joins a group, and the
session serializer with the first cookie read. Left to load late, they sat
in the oldest generation and every full collection walked them again.

The youngest generation is also collected less often (`YOUNG`). A
collection walks the young objects still alive, and in these processes
those are mostly a move's own, in use: the rows and JSON of a batch of
rooms being read and written. Python's default (a collection every 2,000
objects more) walked them again and again: 5% of a daphne's CPU and 8% of
the timer's at 200 rooms (bench/rooms.py, gc.callbacks timing each
collection in thread CPU), with pauses of up to 40 ms in the timer.
"""

import gc

# The session middleware imports it on the first request that reads a session.
import django.contrib.sessions.serializers  # noqa: F401
from channels.layers import get_channel_layer

# Objects allocated (less those freed) between collections of the youngest
# generation. Most of a move's objects are freed before the next collection
# at this spacing; with the default, 2,000, a collection often came in the
# middle of a batch and walked it whole. The survivors (kept states) are
# walked as before, the older generations' thresholds being unchanged.
YOUNG = 50_000


def freeze_start_up() -> None:
    """Load what the process would load on first use, freeze it all, and
    space out the collections of the youngest generation (`YOUNG`)."""
    get_channel_layer()  # builds the layer (no connection yet): imports its backend
    gc.freeze()
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
