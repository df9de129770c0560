"""Free play: `free:<layout>`, a new random deal on the layout each time."""

import secrets

from games.boards import register_mode
from games.engine.deal import Deal, generate_deal
from games.layouts import playable_layout


def free_deal(slug: str) -> Deal:
    # A fresh seed per deal, kept on the run: any deal can be replayed.
    return generate_deal(playable_layout(slug), secrets.token_hex(8))


def register() -> None:
    register_mode("free", free_deal, can_shuffle=True)
