"""Proofs that a layout or a deal can be cleared, checked twice.

The generator's clearing order is replayed on the engine's Board (every pair
must be free and matching when taken, and the board must end empty), and the
solver, which shares no code with the generator, is asked on its own. Both
layouts (before publishing) and stored deals (before serving) go through here.
"""

from dataclasses import dataclass

from games.engine.board import Board, MoveError
from games.engine.deal import Deal, DealError, generate_deal
from games.engine.layout import Layout
from games.engine.solver import solve

Pair = tuple[int, int]

# Enough for the solver on constructed deals of every catalogue layout, and a
# bound on how long one check can hold a worker.
SOLVER_NODES = 300_000
PROOF_SEED = "proof"


@dataclass(frozen=True)
class Check:
    witness_ok: bool
    solver_ok: bool | None  # None: the solver stopped at its node limit
    message: str

    @property
    def verified(self) -> bool:
        return self.witness_ok and self.solver_ok is True


def replay_error(layout: Layout, faces: tuple[str, ...], solution) -> str | None:
    """Why the clearing order fails on this deal, or None when it clears it."""
    board = Board(layout, tuple(faces))
    for step, (a, b) in enumerate(solution, start=1):
        try:
            board.take(a, b)
        except MoveError as e:
            return f"witness step {step} ({a}, {b}): {e}"
    if not board.cleared:
        return f"witness leaves {board.standing.bit_count()} tiles standing"
    return None


def check_deal(deal: Deal, max_nodes: int = SOLVER_NODES) -> Check:
    """Replay the deal's witness and run the solver on the fresh deal."""
    error = replay_error(deal.layout, deal.faces, deal.solution)
    result = solve(Board(deal.layout, deal.faces), max_nodes=max_nodes)
    messages = [error] if error else []
    if result.solvable is False:
        messages.append("the solver proved the deal cannot be cleared")
    elif result.solvable is None:
        messages.append(f"the solver stopped after {result.nodes} nodes")
    return Check(
        witness_ok=error is None,
        solver_ok=result.solvable,
        message="; ".join(messages) or f"verified ({result.nodes} solver nodes)",
    )


def prove_layout(layout: Layout) -> tuple[tuple[Pair, ...] | None, Check]:
    """A witness that the layout's spots can be cleared, and its check."""
    try:
        deal = generate_deal(layout, PROOF_SEED)
    except DealError as e:
        return None, Check(False, False, str(e))
    check = check_deal(deal)
    return (deal.solution if check.verified else None), check
