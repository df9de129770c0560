"""The Together rules (rooms.together), one by one, with a fake clock.

`at(ms)` is a wall time `ms` after the pile has built, which is also the
shared clock's reading while the game was never paused.
"""

from collections import Counter

import pytest

from games.engine.board import Board
from games.engine.solver import solve
from games.errors import Conflict, Refused
from rooms import together as T
from rooms.together_bots import plan_clears
from tests.race_helpers import START, small_deal
from tests.together_helpers import T0, at, game, spread, stacks

# Index order of these piles is the order listed.
SCORING = spread(
    ["dots-1"] * 4
    + ["wind-east"] * 4
    + ["dragon-red"] * 2
    + ["flower-plum", "flower-orchid", "flower-bamboo", "flower-chrysanthemum"]
    + ["season-spring", "season-summer", "season-autumn", "season-winter"]
)
DOTS = ((0, 1), (2, 3))
WIND = ((4, 5), (6, 7))
DRAGON = (8, 9)
FLOWERS = ((10, 11), (12, 13))
SEASONS = ((14, 15), (16, 17))

# Two stacks (dots-2 under dots-3, dots-3 under dots-2), then a wind pair and
# a dots-9 pair loose. Free at first: tiles 1, 3 (no match) and 4 to 7.
# Whoever takes the last loose pair leaves the pile stuck, though it can be
# cleared once laid out again.
STUCK = stacks(
    [["dots-2", "dots-3"], ["dots-3", "dots-2"]], ["wind-east"] * 2 + ["dots-9"] * 2
)
# A stack of three over no match for its top, and a loose pair: taking the
# loose pair leaves spots that no re-lay can clear (two tiles stacked last).
DEAD = stacks([["dots-1", "dots-2", "dots-1"]], ["dots-2", "dots-9", "dots-9"])


def take(state, seat, pair, ms):
    return T.take_pair(state, seat, *pair, at(ms))


def points(state):
    return [s.points for s in state.seats]


class TestDeal:
    def test_everyone_seated_in_the_order_they_joined_and_the_first_goes_first(self):
        state = game(SCORING, "Ann", "Bob", "hard")
        assert [s.name for s in state.seats] == ["Ann", "Bob", "hard"]
        assert state.seats[2].bot == "hard"
        assert state.turn_seat == 0

    def test_the_first_turn_starts_once_the_pile_has_built(self):
        state = game(SCORING, "Ann", "Bob")
        assert state.clock.running_since == START
        assert T.wake_at(state) == at(30_000)
        with pytest.raises(Conflict) as e:
            T.take_pair(state, 0, *DOTS[0], T0)
        assert e.value.code == "building"

    def test_a_deal_needs_someone_to_play(self):
        with pytest.raises(Refused) as e:
            game(SCORING)
        assert e.value.code == "no_seats"


class TestScoring:
    @pytest.mark.parametrize(
        "pair, expected",
        [(DOTS[0], 2), (WIND[0], 4), (DRAGON, 4), (FLOWERS[0], 4), (SEASONS[0], 4)],
    )
    def test_a_suit_pair_scores_2_and_an_honour_pair_4(self, pair, expected):
        state = take(game(SCORING, "Ann", "Bob"), 0, pair, 1000)
        assert points(state) == [expected, 0]
        assert state.moves[-1].points == expected
        assert not state.moves[-1].bonus

    @pytest.mark.parametrize(
        "pairs, first, second",
        [(DOTS, 2, 6), (WIND, 4, 8), (FLOWERS, 4, 8), (SEASONS, 4, 8)],
    )
    def test_the_second_pair_of_your_own_set_scores_2_plus_4_or_4_plus_4(
        self, pairs, first, second
    ):
        """ "4 extra (6 for a suit face, 8 otherwise)": the second pair scores
        6 in all for a suit face and 8 for the others; flowers and seasons
        make sets like the faces do."""
        state = game(SCORING, "Ann")
        state = take(state, 0, pairs[0], 1000)
        state = take(state, 0, pairs[1], 2000)
        assert [m.points for m in state.moves] == [first, second]
        assert state.moves[1].bonus
        assert points(state) == [first + second]
        group = T._group(state, pairs[0])
        assert T.sets(state, 0) == (group,)

    def test_the_bonus_goes_only_to_whoever_took_both_pairs(self):
        state = game(SCORING, "Ann", "Bob")
        state = take(state, 0, WIND[0], 1000)
        state = take(state, 1, WIND[1], 2000)
        assert points(state) == [4, 4]
        assert not state.moves[1].bonus
        assert T.sets(state, 0) == T.sets(state, 1) == ()

    def test_a_set_split_by_someone_else_earns_no_bonus_later(self):
        state = game(SCORING, "Ann", "Bob")
        state = take(state, 0, DOTS[0], 1000)
        state = take(state, 1, DOTS[1], 2000)
        state = take(state, 0, WIND[0], 3000)
        assert points(state) == [6, 2]

    def test_the_table_shows_the_tiles_each_seat_took(self):
        state = game(SCORING, "Ann", "Bob")
        state = take(state, 0, FLOWERS[0], 1000)
        state = take(state, 1, DOTS[0], 2000)
        assert T.taken(state, 0) == (("flower-plum", "flower-orchid"),)
        assert T.taken(state, 1) == (("dots-1", "dots-1"),)


class TestTurns:
    def test_a_match_passes_the_turn(self):
        state = take(game(SCORING, "Ann", "Bob"), 0, DOTS[0], 1000)
        assert state.turn_seat == 1
        assert state.turn_start_ms == 1000
        with pytest.raises(Conflict) as e:
            take(state, 0, DOTS[1], 2000)
        assert e.value.code == "not_your_turn"

    def test_a_refused_pair_keeps_the_turn(self):
        state = game(SCORING, "Ann", "Bob")
        with pytest.raises(Refused) as e:
            take(state, 0, (0, 4), 1000)
        assert e.value.code == "mismatch"
        assert take(state, 0, DOTS[0], 2000).moves[0].seat == 0

    def test_a_retried_pair_changes_nothing(self):
        state = take(game(SCORING, "Ann", "Bob"), 0, DOTS[0], 1000)
        assert take(state, 0, tuple(reversed(DOTS[0])), 1500) is state

    def test_the_turn_passes_with_nothing_taken_after_30_seconds(self):
        state = game(SCORING, "Ann", "Bob")
        assert T.timeout(state, at(29_999)) is state
        state = T.timeout(state, at(30_000))
        assert state.turn_seat == 1
        assert state.turn_start_ms == 30_000
        assert state.moves == ()
        assert (state.seats[0].turns, state.seats[0].turn_ms) == (1, 30_000)
        # Applying it again changes nothing.
        assert T.timeout(state, at(30_000)) is state
        with pytest.raises(Conflict) as e:
            take(state, 0, DOTS[0], 30_500)
        assert e.value.code == "not_your_turn"

    def test_a_late_pair_is_refused_even_before_the_timer_runs(self):
        state = game(SCORING, "Ann", "Bob")
        with pytest.raises(Conflict) as e:
            take(state, 0, DOTS[0], 30_001)
        assert e.value.code == "not_your_turn"

    def test_a_turn_that_ran_out_while_the_timer_was_down_ends_once(self):
        state = T.run_due(game(SCORING, "Ann", "Bob", "Cy"), at(75_000))
        assert [s.turns for s in state.seats] == [1, 0, 0]
        assert state.seats[0].turn_ms == T.TURN_MS
        # Bob's 30 s start when the timer is back, not at Ann's deadline.
        assert state.turn_seat == 1
        assert state.turn_start_ms == 75_000
        assert T.wake_at(state) == at(105_000)

    def test_alone_every_turn_is_yours_each_with_30_seconds(self):
        state = take(game(SCORING, "Ann"), 0, DOTS[0], 5000)
        assert state.turn_seat == 0
        assert state.deadline_ms == 35_000
        state = T.timeout(state, at(35_000))
        assert state.turn_seat == 0
        assert state.deadline_ms == 65_000

    def test_the_game_ends_when_the_last_pair_leaves(self):
        state = game(spread(["dots-1"] * 2), "Ann", "Bob")
        state = take(state, 0, (0, 1), 4000)
        assert state.status == T.OVER
        assert state.turn is None
        assert T.wake_at(state) is None
        assert state.game_ms(at(99_000)) == 4000
        with pytest.raises(Conflict) as e:
            take(state, 1, (0, 1), 5000)
        assert e.value.code == "over"


class TestStuck:
    def play_to_stuck(self, *names):
        state = game(STUCK, *names)
        state = take(state, 0, (4, 5), 1000)  # wind-east
        last = 1 if len(names) > 1 else 0
        return take(state, last, (6, 7), 2000)  # dots-9: now tiles 1 and 3 differ

    def test_a_stuck_pile_is_laid_out_again_and_stays_clearable(self):
        state = self.play_to_stuck("Ann")
        assert state.relays == 1
        assert state.moves[-1].stuck
        board = state.board()
        standing = range(4)
        assert Counter(state.faces[i] for i in standing) == Counter(
            STUCK[1][i] for i in standing
        )
        # Taken tiles keep their faces.
        assert state.faces[4:] == STUCK[1][4:]
        assert board.has_move()
        assert solve(board.copy()).solvable
        assert plan_clears(board, state.plan)
        assert state.status == T.PLAYING

    def test_the_pair_is_scored_then_4_points_are_lost(self):
        state = self.play_to_stuck("Ann")
        assert state.moves[-1].points == 2
        assert state.moves[-1].penalty == 4
        assert points(state) == [4 + 2 - 4]

    def test_points_never_go_below_zero(self):
        state = self.play_to_stuck("Ann", "Bob")
        assert points(state) == [4, 0]
        assert state.moves[-1].penalty == 2

    def test_the_turn_passes_after_a_re_lay(self):
        state = self.play_to_stuck("Ann", "Bob")
        assert state.turn_seat == 0

    def test_spots_no_re_lay_can_clear_end_the_game(self):
        state = take(game(DEAD, "Ann"), 0, (4, 5), 1000)
        assert state.status == T.OVER
        assert state.relays == 0
        assert state.moves[-1].stuck
        assert state.board().standing == 0b1111


class TestAway:
    def test_an_away_player_is_skipped_and_keeps_their_points(self):
        state = take(game(SCORING, "Ann", "Bob", "Cy"), 0, WIND[0], 1000)
        state = T.set_away(state, 0, True, at(1500))
        state = take(state, 1, DOTS[0], 2000)
        state = take(state, 2, DOTS[1], 3000)
        assert state.turn_seat == 1
        assert points(state) == [4, 2, 2]
        assert T.lead(state) == {0: 2, 1: 0, 2: 0}
        assert T.standings(state)[0].seat == 0

    def test_back_again_their_turns_come_back(self):
        state = T.set_away(game(SCORING, "Ann", "Bob"), 0, True, at(0))
        assert state.turn_seat == 1
        state = T.set_away(state, 0, False, at(1000))
        state = take(state, 1, DOTS[0], 2000)
        assert state.turn_seat == 0

    def test_going_away_on_your_turn_passes_it(self):
        state = T.set_away(game(SCORING, "Ann", "Bob"), 0, True, at(4000))
        assert state.turn_seat == 1
        assert state.turn_start_ms == 4000
        assert (state.seats[0].turns, state.seats[0].turn_ms) == (1, 30_000)

    def test_with_everyone_away_the_game_waits_for_the_first_back(self):
        state = game(SCORING, "Ann", "Bob")
        state = T.set_away(state, 1, True, at(1000))
        state = T.set_away(state, 0, True, at(2000))
        assert state.turn is None
        assert T.wake_at(state) is None
        state = T.set_away(state, 1, False, at(50_000))
        assert state.turn_seat == 1
        assert state.deadline_ms == 80_000


class TestDroppedConnection:
    def test_back_within_the_grace_the_turn_is_still_yours(self):
        state = T.drop(game(SCORING, "Ann", "Bob"), 0, at(1000))
        state = T.set_away(state, 0, False, at(1000 + T.DROP_GRACE_MS - 1))
        state = T.run_due(state, at(25_000))
        assert state.turn_seat == 0
        assert state.turn_start_ms == 0
        assert not state.seats[0].away
        assert state.seats[0].gone_at_ms is None

    def test_not_back_in_time_the_turn_passes_when_the_grace_ends(self):
        state = T.drop(game(SCORING, "Ann", "Bob"), 0, at(1000))
        ends = 1000 + T.DROP_GRACE_MS
        assert T.wake_at(state) == at(ends)
        assert T.run_due(state, at(ends - 1)).turn_seat == 0
        state = T.run_due(state, at(ends + 5000))
        assert state.seats[0].away
        assert state.turn_seat == 1
        assert state.turn_start_ms == ends + 5000  # when the timer applied it
        assert (state.seats[0].turns, state.seats[0].turn_ms) == (1, 30_000)

    def test_gone_off_turn_you_are_skipped_once_the_grace_ends(self):
        state = T.drop(game(SCORING, "Ann", "Bob", "Cy"), 1, at(1000))
        state = take(state, 0, WIND[0], 2000)
        assert state.turn_seat == 1  # still within the grace
        state = take(state, 1, DOTS[0], 3000)
        state = take(state, 2, DOTS[1], 14_000)
        assert state.seats[1].away
        assert state.turn_seat == 0

    def test_a_deadline_before_the_grace_ends_comes_first(self):
        state = T.drop(game(SCORING, "Ann", "Bob"), 0, at(25_000))
        state = T.run_due(state, at(40_000))
        assert state.seats[0].away
        assert state.turn_seat == 1
        # The deadline came first (then the grace); Bob's turn starts at
        # the timer's visit.
        assert state.turn_start_ms == 40_000

    def test_an_older_connection_ending_after_a_newer_opened_changes_nothing(self):
        """A phone that lost its signal reconnects at once; the server sees
        the old connection end only later. Ann is still there: her turn
        stays hers past the grace. Her latest connection's drop counts."""
        state = T.connected(game(SCORING, "Ann", "Bob"), 0, "old", at(500))
        state = T.connected(state, 0, "new", at(1000))
        late = T.drop(state, 0, at(2000), "old")
        assert late.seats[0].gone_at_ms is None
        state = T.run_due(late, at(2000 + T.DROP_GRACE_MS + 1))
        assert state.turn_seat == 0 and not state.seats[0].away
        state = T.drop(state, 0, at(13_000), "new")
        assert state.seats[0].gone_at_ms == 13_000 + T.DROP_GRACE_MS

    def test_connecting_brings_a_player_back(self):
        state = T.set_away(game(SCORING, "Ann", "Bob"), 0, True, at(1000))
        assert state.turn_seat == 1
        state = T.connected(state, 0, "tab", at(2000))
        assert not state.seats[0].away and state.seats[0].link == "tab"

    def test_a_dropped_connection_of_someone_away_or_gone_changes_nothing(self):
        state = T.set_away(game(SCORING, "Ann", "Bob"), 0, True, at(1000))
        assert T.drop(state, 0, at(2000)) == state
        state = T.leave(state, 1, at(3000))
        assert T.drop(state, 1, at(4000)) == state


class TestLeaving:
    def test_leaving_mid_turn_passes_the_turn_at_once(self):
        state = T.leave(game(SCORING, "Ann", "Bob"), 0, at(3000))
        assert state.turn_seat == 1
        assert state.turn_start_ms == 3000

    def test_a_player_who_left_is_skipped_for_the_rest_of_the_deal(self):
        state = take(game(SCORING, "Ann", "Bob", "Cy"), 0, WIND[0], 1000)
        state = T.leave(state, 0, at(1500))
        state = take(state, 1, DOTS[0], 2000)
        state = take(state, 2, DOTS[1], 3000)
        assert state.turn_seat == 1
        assert T.standings(state)[0].seat == 0
        assert T.set_away(state, 0, False, at(2500)) == state
        with pytest.raises(Refused) as e:
            take(state, 0, WIND[1], 4000)
        assert e.value.code == "not_seated"

    def test_the_game_ends_when_everyone_has_left(self):
        state = T.leave(game(SCORING, "Ann", "Bob"), 1, at(1000))
        assert state.status == T.PLAYING
        state = T.leave(state, 0, at(2000))
        assert state.status == T.OVER


class TestPause:
    def test_pause_gives_the_turn_its_time_back_on_resume(self):
        state = T.pause(game(SCORING, "Ann", "Bob"), 0, at(10_000))
        assert T.wake_at(state) is None
        # An hour later nothing has run out.
        state = T.run_due(state, at(3_600_000))
        assert state.turn_seat == 0
        state = T.resume(state, 0, at(3_600_000))
        assert T.wake_at(state) == at(3_620_000)
        state = take(state, 0, DOTS[0], 3_619_000)
        assert state.seats[0].turn_ms == 29_000

    def test_nothing_is_taken_while_paused(self):
        state = T.pause(game(SCORING, "Ann", "Bob"), 0, at(10_000))
        with pytest.raises(Conflict) as e:
            take(state, 0, DOTS[0], 11_000)
        assert e.value.code == "paused"

    def test_a_bot_waits_out_a_pause(self):
        state = game(SCORING, "easy", "Ann")
        due = state.bot_at_ms
        state = T.pause(state, 1, at(due - 500))
        assert T.run_due(state, at(due + 60_000)).moves == ()
        state = T.resume(state, 1, at(due + 60_000))
        assert T.wake_at(state) == at(due + 60_500)
        moved = T.run_due(state, at(due + 60_500))
        assert moved.moves[0].ms == due


class TestStandings:
    def finish(self, state, pairs):
        for k, (seat, pair) in enumerate(pairs):
            state = take(state, seat, pair, state.turn_start_ms + 1000 * (k + 1))
        return state

    def test_most_points_win(self):
        state = game(SCORING, "Ann", "Bob")
        state = take(state, 0, DOTS[0], 1000)
        state = take(state, 1, WIND[0], 2000)
        assert [p.seat for p in T.standings(state)] == [1, 0]
        assert [p.place for p in T.standings(state)] == [1, 2]

    def test_level_on_points_the_quicker_average_turn_wins(self):
        state = game(SCORING, "Ann", "Bob")
        state = take(state, 0, DOTS[0], 9000)  # Ann: 9 s
        state = take(state, 1, DOTS[1], 10_000)  # Bob: 1 s
        places = T.standings(state)
        assert [(p.seat, p.place, p.points) for p in places] == [(1, 1, 2), (0, 2, 2)]
        assert [p.average_ms for p in places] == [1000, 9000]

    def test_a_timed_out_turn_counts_30_seconds_in_the_average(self):
        state = game(SCORING, "Ann", "Bob")
        state = take(state, 0, DOTS[0], 1000)  # Ann: 1 s
        state = take(state, 1, DOTS[1], 13_000)  # Bob: 12 s
        state = T.timeout(state, at(43_000))  # Ann: 30 s, so 15.5 s a turn
        ann, bob = state.seats
        assert (ann.points, bob.points) == (2, 2)
        assert (ann.turns, ann.turn_ms) == (2, 31_000)
        places = T.standings(state)
        assert [(p.seat, p.average_ms) for p in places] == [(1, 12_000), (0, 15_500)]

    def test_level_on_points_and_pace_share_the_place(self):
        state = game(SCORING, "Ann", "Bob", "Cy")
        state = take(state, 0, DOTS[0], 1000)
        state = take(state, 1, DOTS[1], 2000)
        state = T.timeout(state, at(32_000))
        places = T.standings(state)
        assert [(p.seat, p.place) for p in places] == [(0, 1), (1, 1), (2, 3)]

    def test_lead_is_points_above_the_lowest_at_the_table(self):
        state = game(SCORING, "Ann", "Bob", "Cy")
        state = take(state, 0, WIND[0], 1000)
        state = take(state, 1, DOTS[0], 2000)
        assert T.lead(state) == {0: 4, 1: 2, 2: 0}
        # Cy stays on the strip after leaving, and counts for the lowest.
        assert T.lead(T.leave(state, 2, at(3000))) == {0: 4, 1: 2, 2: 0}


class TestLateArrivals:
    def test_a_late_arrival_watches_and_plays_the_next_deal(self):
        state = T.watch(game(SCORING, "Ann", "Bob"), 5, "Dee", "")
        assert [w.seat for w in state.watchers] == [5]
        with pytest.raises(Refused) as e:
            take(state, 5, DOTS[0], 1000)
        assert e.value.code == "not_seated"
        state = T.timeout(state, at(30_000))
        assert state.turn_seat == 1  # never Dee's
        state = T.leave(state, 0, at(31_000))
        assert T.next_seats(state) == [(1, "Bob", ""), (5, "Dee", "")]

    def test_someone_seated_is_not_a_watcher(self):
        state = game(SCORING, "Ann", "Bob")
        assert T.watch(state, 1, "Bob", "") is state

    def test_a_watcher_who_leaves_is_gone(self):
        state = T.watch(game(SCORING, "Ann"), 5, "Dee", "")
        assert T.leave(state, 5, at(1000)).watchers == ()


class TestHint:
    def test_the_bulb_answers_on_your_own_turn(self):
        deal = small_deal()
        state = T.deal(deal.layout, deal.faces, "h", [(0, "A", ""), (1, "B", "")], T0)
        found = T.hint(state, 0, at(1000))
        assert found.pair in Board(deal.layout, deal.faces).free_pairs()
        assert found.clearable

    def test_the_bulb_is_refused_off_your_turn(self):
        with pytest.raises(Conflict) as e:
            T.hint(game(SCORING, "Ann", "Bob"), 1, at(1000))
        assert e.value.code == "not_your_turn"


class TestBots:
    def test_a_bot_moves_only_after_its_think_time(self):
        state = game(SCORING, "hard", "Ann")
        due = state.bot_at_ms
        assert 0 < due < T.TURN_MS
        assert T.wake_at(state) == at(due)
        assert T.bot_step(state, at(due - 1)) is state
        moved = T.bot_step(state, at(due))
        assert moved.moves[0].seat == 0
        assert moved.moves[0].ms == due
        assert moved.turn_seat == 1
        assert moved.turn_start_ms == due

    def test_a_late_timer_plays_the_bot_once_and_ann_gets_her_30_seconds(self):
        state = game(SCORING, "medium", "Ann")
        due = state.bot_at_ms
        state = T.run_due(state, at(due + 40_000))
        (move,) = state.moves
        assert move.seat == 0 and move.ms == due  # the bot, at its time
        # Ann's turn begins when the timer is back: none of it is lost.
        assert state.turn_seat == 1
        assert state.turn_start_ms == due + 40_000
        assert state.seats[1].turns == 0

    def test_bots_of_every_level_play_a_deal_to_the_end_the_same_way_twice(self):
        deal = small_deal()
        names = [(0, "e", "easy"), (1, "m", "medium"), (2, "h", "hard")]

        def play():
            state = T.deal(deal.layout, deal.faces, "b", names, T0, deal.solution)
            for _ in range(200):
                if T.wake_at(state) is None:
                    break
                state = T.run_due(state, T.wake_at(state))
            return state

        state = play()
        assert state.status == T.OVER
        assert state.board().cleared
        assert sum(m.points - m.penalty for m in state.moves) == sum(points(state))
        assert play() == state

    def test_a_hard_bot_completes_its_set_for_the_bonus(self):
        """Hard takes the pair worth most: the second wind pair (8) over the
        dragons (4) that come first in index order."""
        pile = spread(["wind-east"] * 2 + ["dragon-red"] * 2 + ["wind-east"] * 2)
        state = game(pile, "hard", "Ann")
        state = T.run_due(state, at(state.bot_at_ms))
        assert state.moves[0].pair == (0, 1)
        state = T.timeout(state, at(state.deadline_ms))
        state = T.run_due(state, at(state.bot_at_ms))
        assert state.moves[1].pair == (4, 5)
        assert state.moves[1].points == 8
