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
"""

import gc

# The session middleware imports it on the first request that reads a session.
import django.contrib.sessions.serializers  # noqa: F401
from channels.layers import get_channel_layer


def freeze_start_up() -> None:
    """Load what the process would load on first use, then freeze it all."""
    get_channel_layer()  # builds the layer (no connection yet): imports its backend
    gc.freeze()
