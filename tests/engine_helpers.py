"""Small builders for engine tests."""

from games.engine.board import Board
from games.engine.layout import Layout
from games.engine.solver import SolveResult


def board_of(*tiles: tuple[int, int, int, str]) -> Board:
    """A board from (x, y, z, face) tuples; index = order given."""
    layout = Layout(slug="t", name="t", positions=tuple(t[:3] for t in tiles))
    return Board(layout, tuple(t[3] for t in tiles))


def replay(board: Board, pairs) -> Board:
    """Take each pair on a copy (raising on an illegal one); return the copy."""
    board = board.copy()
    for a, b in pairs:
        board.take(a, b)
    return board


class SettlesNothing:
    """Stands in for the engine's Solver: every search runs out of budget
    undecided. What a hint proves with it, it proves without search."""

    def __init__(self, board: Board) -> None:
        pass

    def solve(self, max_nodes: int = 0, first=None, clauses_after=0) -> SolveResult:
        return SolveResult(None, None, max_nodes, 0.0)
