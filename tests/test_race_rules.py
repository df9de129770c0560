"""The race rules (rooms.race), one by one, with a fake clock."""

from dataclasses import replace

import pytest

from games.engine import hint as hint_module
from games.engine.solver import solve
from rooms import race as R
from tests.engine_helpers import SettlesNothing
from tests.race_helpers import START, T0, at, small_deal, stuck_pairs

DEAL = small_deal()
SOLUTION = DEAL.solution


def new_race(seats=((0, "Ann", ""), (1, "Bob", "")), limit=0):
    return R.deal(
        DEAL.layout, DEAL.faces, "race-1", list(seats), limit, T0, DEAL.solution
    )


def play(race, seat, pairs, start_ms=1000, every_ms=1000):
    """Take `pairs` one a second for `seat`, from `start_ms` on the race clock."""
    ms = start_ms
    for pair in pairs:
        race = R.take(race, seat, *pair, len(race.racer(seat).steps), at(ms))
        ms += every_ms
    return race


def stuck(race, seat, start_ms=1000):
    return play(race, seat, stuck_pairs(), start_ms)


class TestDeal:
    def test_everyone_gets_the_same_faces(self):
        race = new_race()
        assert [r.faces for r in race.racers] == [DEAL.faces, DEAL.faces]

    def test_the_clock_starts_when_the_pile_has_built(self):
        race = new_race()
        assert race.race_ms(T0) == 0
        assert race.race_ms(START) == 0
        assert race.race_ms(at(2500)) == 2500

    def test_a_pair_while_the_pile_builds_is_refused(self):
        with pytest.raises(R.Conflict) as e:
            R.take(new_race(), 0, *SOLUTION[0], 0, T0)
        assert e.value.code == "building"

    def test_an_unknown_time_limit_is_refused(self):
        with pytest.raises(R.Refused):
            new_race(limit=7)


class TestTake:
    def test_a_pair_changes_only_the_racers_own_board(self):
        race = R.take(new_race(), 0, *SOLUTION[0], 0, at(1000))
        assert race.racer(0).matches == 1
        assert race.racer(1).matches == 0
        assert race.racer(0).reached_ms == 1000

    def test_each_pair_is_checked_against_the_racers_own_board(self):
        race = R.take(new_race(), 0, *SOLUTION[0], 0, at(1000))
        with pytest.raises(R.Refused) as e:
            R.take(race, 0, *SOLUTION[0], 1, at(2000))
        assert e.value.code == "gone"
        # The other racer still has those tiles.
        assert R.take(race, 1, *SOLUTION[0], 0, at(2000)).racer(1).matches == 1

    def test_a_mismatch_is_refused(self):
        board = new_race().racer(0).board(DEAL.layout)
        free = board.free_tiles()
        a, b = next(
            (a, b)
            for a in free
            for b in free
            if a < b and board.groups[a] != board.groups[b]
        )
        with pytest.raises(R.Refused) as e:
            R.take(new_race(), 0, a, b, 0, at(1000))
        assert e.value.code == "mismatch"

    def test_a_stale_move_count_is_refused(self):
        race = R.take(new_race(), 0, *SOLUTION[0], 0, at(1000))
        with pytest.raises(R.Conflict) as e:
            R.take(race, 0, *SOLUTION[1], 0, at(2000))
        assert e.value.code == "stale"

    def test_a_retried_pair_changes_nothing(self):
        race = R.take(new_race(), 0, *SOLUTION[0], 0, at(1000))
        again = R.take(race, 0, *reversed(SOLUTION[0]), 0, at(3000))
        assert again == race

    def test_a_stranger_cannot_take(self):
        with pytest.raises(R.Refused) as e:
            R.take(new_race(), 9, *SOLUTION[0], 0, at(1000))
        assert e.value.code == "not_racing"


class TestHint:
    def test_following_the_deal_the_hint_is_proved_without_search(self, monkeypatch):
        monkeypatch.setattr(hint_module, "Solver", SettlesNothing)
        race = play(new_race(), 0, SOLUTION[:3])
        hint = R.hint(race, 0, at(5000))
        assert hint.clearable is True
        assert hint.pair in race.racer(0).board(race.layout).free_pairs()
        # Off the deal, the same search verifies nothing.
        ours = {tuple(sorted(p)) for p in SOLUTION}
        pairs = stuck_pairs()
        leaves = next(i for i, p in enumerate(pairs) if tuple(sorted(p)) not in ours)
        off = play(new_race(), 0, pairs[: leaves + 1])
        assert R.hint(off, 0, at(60_000)).clearable is None

    def test_off_the_deal_or_after_a_shuffle_the_search_decides(self):
        race = stuck(new_race(), 0)
        assert R.hint(race, 0, at(20_000)).clearable is False
        race = R.shuffle(race, 0, "s", at(21_000))
        hint = R.hint(race, 0, at(22_000))
        assert hint.clearable is True
        board = race.racer(0).board(race.layout)
        board.take(*hint.pair)
        assert solve(board).solvable is True


class TestFinishing:
    def test_the_time_locks_in_on_the_last_pair(self):
        race = play(new_race(), 0, SOLUTION)
        ann = race.racer(0)
        assert ann.status == R.CLEARED
        assert ann.end_ms == 16_000
        assert race.own_ms(ann, at(99_000)) == 16_000
        assert race.status == R.RACING  # Bob plays on

    def test_the_race_ends_when_everyone_has_cleared_or_stopped(self):
        race = play(new_race(), 0, SOLUTION)
        race = stuck(race, 1)
        race = R.stop(race, 1, at(30_000))
        assert race.status == R.OVER
        assert race.racer(1).status == R.STOPPED
        assert R.wake_at(race) is None

    def test_a_finished_racer_cannot_move(self):
        race = play(new_race(), 0, SOLUTION)
        with pytest.raises(R.Conflict) as e:
            R.undo(race, 0, len(SOLUTION), at(20_000))
        assert e.value.code == "done"


class TestRanking:
    def racer(self, seat, status, matches, reached, end=None):
        steps = tuple(R.taken(reached, (2 * k, 2 * k + 1)) for k in range(matches))
        return R.Racer(
            seat=seat, name=f"P{seat}", faces=(), status=status, steps=steps, end_ms=end
        )

    def places(self, *racers):
        race = replace(new_race(), racers=racers)
        return [(p.seat, p.place) for p in R.standings(race)]

    def test_finishers_by_time_then_others_by_matches(self):
        assert self.places(
            self.racer(0, R.STOPPED, 10, 5000),
            self.racer(1, R.CLEARED, 16, 90_000, end=90_000),
            self.racer(2, R.CLEARED, 16, 60_000, end=60_000),
            self.racer(3, R.STOPPED, 12, 9000),
        ) == [(2, 1), (1, 2), (3, 3), (0, 4)]

    def test_equal_matches_go_to_who_reached_them_sooner(self):
        assert self.places(
            self.racer(0, R.STOPPED, 8, 40_000), self.racer(1, R.TIMED_OUT, 8, 30_000)
        ) == [(1, 1), (0, 2)]

    def test_racers_level_in_every_way_share_the_place(self):
        assert self.places(
            self.racer(0, R.CLEARED, 16, 50_000, end=50_000),
            self.racer(1, R.CLEARED, 16, 50_000, end=50_000),
            self.racer(2, R.STOPPED, 3, 7000),
            self.racer(3, R.STOPPED, 3, 7000),
        ) == [(0, 1), (1, 1), (2, 3), (3, 3)]

    def test_with_a_time_limit_and_no_finisher_most_matches_wins(self):
        race = new_race(limit=5)
        race = play(race, 0, SOLUTION[:3])
        race = play(race, 1, SOLUTION[:5])
        race = R.settle(race, at(5 * 60_000))
        assert race.status == R.OVER
        assert [(p.seat, p.place) for p in R.standings(race)] == [(1, 1), (0, 2)]

    def test_an_undone_pair_does_not_count(self):
        race = play(new_race(), 0, SOLUTION[:2])
        race = R.undo(race, 0, 2, at(5000))
        assert race.racer(0).matches == 1
        assert race.racer(0).reached_ms == 1000


class TestShuffle:
    def test_no_shuffle_while_a_pair_is_on_the_table(self):
        with pytest.raises(R.Refused) as e:
            R.shuffle(new_race(), 0, "s", at(1000))
        assert e.value.code == "pair_on_table"

    def test_a_shuffle_adds_sixty_seconds_to_the_racers_clock(self):
        race = stuck(new_race(), 0)
        moved = len(stuck_pairs())
        race = R.shuffle(race, 0, "s", at(20_000))
        ann = race.racer(0)
        assert race.own_ms(ann, at(20_000)) == 80_000
        assert race.own_ms(race.racer(1), at(20_000)) == 20_000
        assert ann.matches == moved
        assert ann.board(DEAL.layout).has_move()
        assert sorted(ann.faces) == sorted(DEAL.faces)

    def test_undo_after_a_shuffle_restores_the_tiles_but_keeps_the_penalty(self):
        before = stuck(new_race(), 0)
        race = R.shuffle(before, 0, "s", at(20_000))
        race = R.undo(race, 0, len(race.racer(0).steps), at(21_000))
        ann = race.racer(0)
        assert ann.faces == before.racer(0).faces
        assert ann.steps == before.racer(0).steps
        assert ann.penalty_ms == 60_000
        assert race.own_ms(ann, at(21_000)) == 81_000

    def test_stop_here_only_when_stuck(self):
        with pytest.raises(R.Refused):
            R.stop(new_race(), 0, at(1000))
        race = R.stop(stuck(new_race(), 0), 0, at(20_000))
        assert race.racer(0).status == R.STOPPED
        assert race.racer(0).matches == len(stuck_pairs())

    def test_a_shuffle_can_use_up_the_time_limit(self):
        race = stuck(new_race(limit=5), 0)
        race = R.shuffle(race, 0, "s", at(4 * 60_000 + 30_000))
        assert race.racer(0).status == R.TIMED_OUT
        assert race.racer(0).end_ms == 5 * 60_000


class TestPause:
    def test_paused_time_is_skipped_by_every_clock(self):
        race = R.pause(new_race(), 0, at(10_000))
        race = R.resume(race, 0, at(70_000))
        assert race.race_ms(at(75_000)) == 15_000

    def test_no_move_while_paused(self):
        race = R.pause(new_race(), 0, at(10_000))
        with pytest.raises(R.Conflict) as e:
            R.take(race, 0, *SOLUTION[0], 0, at(11_000))
        assert e.value.code == "paused"

    def test_a_paused_race_has_nothing_due(self):
        race = R.pause(new_race(limit=5), 0, at(10_000))
        assert R.wake_at(race) is None
        assert R.settle(race, at(3_600_000)).status == R.RACING

    def test_pausing_twice_or_resuming_a_running_race_changes_nothing(self):
        race = R.pause(new_race(), 0, at(10_000))
        assert R.pause(race, 0, at(20_000)) == race
        assert R.resume(new_race(), 0, at(5000)) == new_race()

    def test_someone_waiting_for_the_next_deal_cannot_pause_or_resume(self):
        with pytest.raises(R.Refused) as e:
            R.pause(new_race(), 5, at(10_000))
        assert e.value.code == "not_racing"
        paused = R.pause(new_race(), 1, at(10_000))
        with pytest.raises(R.Refused):
            R.resume(paused, 5, at(20_000))
        assert R.resume(paused, 0, at(20_000)).paused is False


class TestTimeLimit:
    def test_racers_are_out_when_the_limit_runs_out(self):
        race = play(new_race(limit=5), 0, SOLUTION[:2])
        assert R.wake_at(race) == at(5 * 60_000)
        race = R.settle(race, at(5 * 60_000))
        assert {r.status for r in race.racers} == {R.TIMED_OUT}
        assert race.status == R.OVER

    def test_a_move_after_the_limit_is_refused_before_any_timer_runs(self):
        race = new_race(limit=5)
        with pytest.raises(R.Conflict) as e:
            R.take(race, 0, *SOLUTION[0], 0, at(5 * 60_000 + 1))
        assert e.value.code == "over"

    def test_the_limit_moves_with_a_pause(self):
        race = R.pause(new_race(limit=5), 0, at(60_000))
        race = R.resume(race, 0, at(120_000))
        assert R.wake_at(race) == at(6 * 60_000)


class TestLateJoiner:
    def test_joining_within_a_few_seconds_races_on_this_deal(self):
        race = R.join(new_race(), 2, "Cat", "", T0 + R.timedelta(seconds=4))
        assert race.racer(2).faces == DEAL.faces

    def test_joining_later_waits_for_the_next_deal(self):
        with pytest.raises(R.Conflict) as e:
            R.join(new_race(), 2, "Cat", "", at(10_000))
        assert e.value.code == "in_progress"


class TestEndAndLeave:
    def test_the_host_cannot_end_the_race_while_still_playing(self):
        with pytest.raises(R.Refused) as e:
            R.end_now(new_race(), 0, at(5000))
        assert e.value.code == "host_playing"

    def test_end_now_stops_everyone_with_their_matches(self):
        race = play(new_race(), 0, SOLUTION)
        race = play(race, 1, SOLUTION[:4], start_ms=20_000)
        race = R.end_now(race, 0, at(40_000))
        assert race.status == R.OVER
        bob = race.racer(1)
        assert (bob.status, bob.matches, bob.end_ms) == (R.STOPPED, 4, 40_000)
        assert [p.seat for p in R.standings(race)] == [0, 1]

    def test_the_host_leaving_ends_the_race(self):
        race = R.abandon(new_race(), at(5000))
        assert race.status == R.OVER

    def test_a_racer_who_leaves_keeps_their_matches(self):
        race = play(new_race(), 1, SOLUTION[:3])
        race = R.leave(race, 1, at(10_000))
        assert race.racer(1).status == R.LEFT
        assert race.racer(1).matches == 3
        assert race.status == R.RACING


class TestBots:
    def bots_race(self, level, limit=0):
        return new_race(seats=((0, "Ann", ""), (1, "Bot", level)), limit=limit)

    def run(self, race, until_ms):
        """Drive the timer: wake up whenever something is due."""
        while (when := R.wake_at(race)) is not None and when <= at(until_ms):
            race = R.run_due(race, when)
        return race

    def test_a_bot_moves_when_its_time_comes_and_not_before(self):
        race = self.bots_race(R.bots.HARD)
        first = race.racer(1).bot_at_ms
        assert 800 <= first <= 1600
        assert R.run_due(race, at(first - 1)) == race
        race = R.run_due(race, at(first))
        assert race.racer(1).matches == 1
        assert race.racer(1).bot_at_ms > first

    def test_a_hard_bot_clears_without_a_shuffle(self):
        race = self.run(self.bots_race(R.bots.HARD), 120_000)
        bot = race.racer(1)
        assert bot.status == R.CLEARED
        assert bot.shuffles == 0
        assert race.racer(0).playing

    def test_an_easy_bot_plays_slower_than_a_hard_one(self):
        easy = self.run(self.bots_race(R.bots.EASY), 30_000).racer(1)
        hard = self.run(self.bots_race(R.bots.HARD), 30_000).racer(1)
        assert easy.matches < hard.matches

    def test_a_stuck_bot_shuffles_and_pays_the_penalty(self):
        race = self.bots_race(R.bots.EASY)
        bot = race.racer(1)
        steps = tuple(R.taken(0, pair) for pair in stuck_pairs())
        race = race.with_racer(replace(bot, steps=steps, bot_at_ms=1000))
        race = R.run_due(race, at(1000))
        bot = race.racer(1)
        assert (bot.shuffles, bot.penalty_ms) == (1, 60_000)

    def test_bots_do_not_move_while_paused(self):
        race = R.pause(self.bots_race(R.bots.HARD), 0, START)
        assert R.run_due(race, at(60_000)) == race

    def test_a_bot_is_out_when_the_limit_runs_out(self):
        race = self.run(self.bots_race(R.bots.EASY, limit=5), 10 * 60_000)
        assert race.racer(1).status in (R.CLEARED, R.TIMED_OUT)
        assert race.racer(0).status == R.TIMED_OUT
        assert race.status == R.OVER
