"""A room's positions as boards, built from their standing tiles.

The rules rebuild a position's board from its standing tiles many times a
move (the rule, its check, what players see, the next move or the bot's
choice), and walking the pile for its free tiles is most of that. Those
are kept here, apart from the rules' state: a pure function's recent
answers, in a small table the process owns, so a state is only its values
and a new one never carries a stale answer.
"""

from collections import OrderedDict
from threading import Lock

from games.engine.board import Board
from games.engine.layout import Layout

# About the positions in play on one server (a few per room).
RECENT = 4096

# (id of the layout, standing tiles) -> (the layout, its free tiles). By
# identity: a layout's hash walks all its positions; it is kept in the
# value so its id cannot be reused while the entry lives. Moves run on
# several threads at once: the table changes under a lock.
_free: OrderedDict[tuple[int, int], tuple[Layout, int]] = OrderedDict()
_lock = Lock()


def free_tiles(layout: Layout, standing: int) -> int:
    """layout.free_mask(standing), kept for the positions seen lately."""
    key = (id(layout), standing)
    with _lock:
        found = _free.get(key)
        if found is not None:
            _free.move_to_end(key)
            return found[1]
    free = layout.free_mask(standing)
    with _lock:
        _free[key] = (layout, free)
        if len(_free) > RECENT:
            _free.popitem(last=False)
    return free


def remember(board: Board) -> None:
    """Keep the free tiles of `board`, worked out as it took a pair (a few
    tiles looked at rather than the pile): the next board built at its
    position starts from them."""
    with _lock:
        _free[(id(board.layout), board.standing)] = (board.layout, board.free)
        if len(_free) > RECENT:
            _free.popitem(last=False)


def board_at(layout: Layout, faces: tuple[str, ...], standing: int) -> Board:
    """The board of a position whose standing tiles are all legal."""
    return Board(layout, faces, standing, free_tiles(layout, standing))
