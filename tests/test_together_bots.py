"""Bots of Together mode (rooms.together_bots): their choices per level,
their pace, and the plan that tells them cheaply which pairs are safe."""

from games.engine.board import Board
from games.engine.layout import Layout
from games.engine.rng import Rng
from rooms import together as T
from rooms import together_bots as B
from tests.together_helpers import at, game, spread

# Four dots-1: tiles 0 and 1 loose, tile 2 under tile 3. Taking (0, 1)
# leaves 2 under 3, which can never go; any pair with tile 3 clears.
TRAP = (
    Layout("trap", "Trap", ((8, 0, 0), (12, 0, 0), (0, 0, 0), (0, 0, 1))),
    ("dots-1",) * 4,
)
TRAP_SAFE = {(0, 3), (1, 3)}
# A true clearing of the trap, and a pairing that does not clear.
TRAP_PLAN = ((0, 3), (1, 2))
TRAP_WRONG = ((0, 1), (2, 3))


def board(pile) -> Board:
    return Board(*pile)


def flat(pair):
    return 0


class TestThinking:
    def test_harder_bots_think_less_and_always_within_the_turn(self):
        means = {}
        for level in B.LEVELS:
            waits = [B.think_ms(level, Rng("t", k)) for k in range(200)]
            low, high = B.THINK_MS[level]
            assert all(low <= w <= high for w in waits)
            assert max(waits) < T.TURN_MS
            means[level] = sum(waits) / len(waits)
        assert means[B.HARD] < means[B.MEDIUM] < means[B.EASY]

    def test_the_wait_is_the_same_for_the_same_seed(self):
        assert B.think_ms(B.EASY, Rng("x")) == B.think_ms(B.EASY, Rng("x"))


class TestEasy:
    def test_it_takes_any_free_pair_at_random_but_repeatably(self):
        pile = spread(["dots-1"] * 4 + ["wind-east"] * 2)
        pairs = board(pile).free_pairs()
        picks = [
            B.choose(board(pile), B.EASY, Rng("e", k), (), flat) for k in range(30)
        ]
        assert set(picks) <= set(pairs)
        assert len(set(picks)) > 2
        again = [
            B.choose(board(pile), B.EASY, Rng("e", k), (), flat) for k in range(30)
        ]
        assert picks == again

    def test_it_may_walk_into_the_trap(self):
        picks = {
            B.choose(board(TRAP), B.EASY, Rng("e", k), (), flat) for k in range(30)
        }
        assert (0, 1) in picks


class TestMedium:
    def test_it_keeps_the_pile_clearable_from_the_plan(self):
        assert B.choose(board(TRAP), B.MEDIUM, Rng("m"), TRAP_PLAN, flat) == (0, 3)

    def test_without_a_plan_it_asks_the_engines_hint(self):
        assert B.choose(board(TRAP), B.MEDIUM, Rng("m"), (), flat) in TRAP_SAFE


class TestHard:
    def test_it_takes_the_pair_worth_the_most(self):
        pile = spread(["dots-1"] * 2 + ["wind-east"] * 2)
        state = game(pile, "hard", "Ann")
        state = T.run_due(state, at(state.bot_at_ms))
        assert state.moves[0].pair == (2, 3)

    def test_among_equals_it_keeps_the_pile_clearable_before_index_order(self):
        """(0, 1) comes first in index order but strands tile 2."""
        for plan in (TRAP_PLAN, ()):
            assert B.best_pair(board(TRAP), plan, flat) == (0, 3)

    def test_worth_comes_before_safety(self):
        def worth(pair):
            return 1 if pair == (1, 3) else 0

        assert B.best_pair(board(TRAP), TRAP_PLAN, worth) == (1, 3)

    def test_its_worth_counts_the_penalty_for_leaving_the_pile_stuck(self):
        """Given a plan that wrongly calls (0, 1) safe, the hard bot still
        takes a pair with tile 3: (0, 1) would stick the pile and cost it
        the points it brings."""
        state = game(TRAP, "hard", "Ann", witness=TRAP_WRONG)
        assert state.plan == TRAP_WRONG
        state = T.run_due(state, at(state.bot_at_ms))
        assert state.moves[0].pair in TRAP_SAFE
        assert not state.moves[0].stuck


class TestPlan:
    def test_a_pairing_clears_or_not_whatever_the_order(self):
        assert B.plan_clears(board(TRAP), TRAP_PLAN)
        assert not B.plan_clears(board(TRAP), TRAP_WRONG)

    def test_a_pair_of_the_plan_just_leaves_it(self):
        after = board(TRAP)
        after.take(0, 3)
        assert B.plan_after(after, TRAP_PLAN, (0, 3)) == ((1, 2),)

    def test_another_pair_of_the_group_joins_the_tiles_it_split(self):
        pile = spread(["dots-1"] * 4)
        after = board(pile)
        after.take(0, 2)
        assert B.plan_after(after, ((0, 1), (2, 3)), (2, 0)) == ((1, 3),)

    def test_the_plan_is_lost_when_the_new_pairing_cannot_clear(self):
        after = board(TRAP)
        after.take(0, 1)
        assert B.plan_after(after, TRAP_PLAN, (0, 1)) == ()

    def test_a_lost_plan_stays_lost(self):
        after = board(TRAP)
        after.take(0, 3)
        assert B.plan_after(after, (), (0, 3)) == ()

    def test_the_game_repairs_its_plan_while_bots_take_other_pairs(self):
        """Easy bots take pairs at random, off the plan too; on a pile where
        every pairing clears, the plan is always repaired."""
        pile = spread(["dots-1"] * 4 + ["wind-east"] * 4)
        plan = ((0, 1), (2, 3), (4, 5), (6, 7))
        state = game(pile, "easy", "easy", witness=plan)
        off_plan = 0
        while state.status == T.PLAYING:
            before = state.plan
            state = T.run_due(state, T.wake_at(state))
            off_plan += state.moves[-1].pair not in before
            if state.status == T.PLAYING:
                assert state.plan
                assert B.plan_clears(state.board(), state.plan)
        assert off_plan
