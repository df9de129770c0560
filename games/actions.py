"""Every change to a run: validate, lock the row, apply the rules, save.

Each action runs in one transaction holding the run's row lock
(select_for_update), so two requests for the same run (a double click, a
retry, two tabs) are applied one after the other, each on the state the
other left. The time always comes from `current_time()`, never the client.
"""

import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import Player
from games import boards, pace, play
from games.engine.formats import deal_to_json
from games.engine.hint import Hint
from games.engine.safety import Safety
from games.errors import Forbidden
from games.models import BestTime, Run


class RunNotFound(LookupError):
    pass


class NotYourRun(PermissionError):
    pass


def current_time() -> datetime:
    """The server's clock; tests replace it to drive runs through time."""
    return timezone.now()


def get_run(run_id: str, player: Player, lock: bool = False) -> Run:
    """A player's own run; RunNotFound or NotYourRun otherwise."""
    runs = Run.objects.select_for_update() if lock else Run.objects
    run = runs.filter(public_id=run_id).first()
    if run is None:
        raise RunNotFound(f"no run {run_id!r}")
    if run.player_id != player.pk:
        raise NotYourRun(f"run {run_id!r} belongs to another player")
    return run


def _locked(run_id: str, player: Player) -> Run:
    return get_run(run_id, player, lock=True)


def best_ms(player: Player, board_key: str) -> int | None:
    return (
        BestTime.objects.filter(player=player, board_key=board_key)
        .values_list("best_ms", flat=True)
        .first()
    )


def _record_best(run: Run, now: datetime) -> None:
    """After a clean win: keep the time if it beats the player's best."""
    ms = run.elapsed_ms(now)
    best = (
        BestTime.objects.select_for_update()
        .filter(player_id=run.player_id, board_key=run.board_key)
        .first()
    )
    if best is not None and ms >= best.best_ms:
        return
    if best is None:
        best = BestTime(player_id=run.player_id, board_key=run.board_key)
    best.best_ms, best.run, best.achieved = ms, run, now
    best.layout_name = run.layout_name
    best.save()
    run.set_best = True


def _save(run: Run, state: play.RunState, now: datetime) -> Run:
    if run.pk is not None and state == run.state():
        return run  # a retried request: nothing to write
    was_in_play = run.status in play.IN_PLAY
    run.set_state(state, now)
    if was_in_play and run.status == play.WON:
        run.too_fast = not pace.human_paced(run.move_ms)
        if run.clean and not run.too_fast:
            ms = run.elapsed_ms(now)
            if boards.is_ranked(run.mode) and pace.needs_review(ms, run.pairs):
                run.review = Run.Review.WAITING
            else:
                _record_best(run, now)
    run.save()
    return run


def _end(run: Run, now: datetime) -> None:
    """End a run in progress that a new deal replaces; it counts as lost."""
    run.set_state(play.give_up(run.state(), now), now)
    run.save()


def _in_progress(player: Player, board_key: str) -> Run | None:
    """The player's run in progress on a board, locked. The player's row is
    locked first: it orders concurrent starts, so there is one run in
    progress per board even when two tabs start at once."""
    Player.objects.select_for_update().filter(pk=player.pk).first()
    return (
        Run.objects.select_for_update()
        .filter(player=player, board_key=board_key, status__in=play.IN_PLAY)
        .first()
    )


def start_run(player: Player, board_key: str, fresh: bool = False) -> tuple[Run, bool]:
    """The run in progress on this board, or a new deal; (run, dealt)."""
    now = current_time()
    with transaction.atomic():
        current = _in_progress(player, board_key)
        if current is not None and not fresh:
            return current, False
        mode, deal = boards.deal_for(board_key, player)
        if current is not None:
            _end(current, now)
        state = play.deal(deal.layout, deal.faces, mode.can_shuffle, now)
        run = Run(
            player=player,
            board_key=board_key,
            mode=mode.name,
            layout_slug=deal.layout.slug,
            layout_name=deal.layout.name,
            seed=deal.seed,
            tiles=deal_to_json(deal)["tiles"],
            initial_faces=list(deal.faces),
            witness=[list(pair) for pair in deal.solution],
        )
        _save(run, state, now)
        return run, True


def take_pair(run_id: str, player: Player, a: int, b: int, move: int) -> Run:
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        return _save(run, play.take(run.state(), a, b, move, now), now)


def undo_move(run_id: str, player: Player, move: int) -> Run:
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        return _save(run, play.undo(run.state(), move, now), now)


def use_hint(run_id: str, player: Player) -> tuple[Run, Hint]:
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        state, found = play.hint(run.state(), now)
        return _save(run, state, now), found


def shuffle_run(run_id: str, player: Player) -> Run:
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        seed = secrets.token_hex(8)
        return _save(run, play.shuffle(run.state(), seed, now), now)


def restart_run(run_id: str, player: Player) -> Run:
    """The same deal from the start. A finished run is played again as a new
    run, so its result stays on record."""
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        state = play.restart(run.state(), now)
        if run.status in play.IN_PLAY:
            return _save(run, state, now)
        current = _in_progress(player, run.board_key)
        if current is not None:
            _end(current, now)
        again = Run(
            player=player,
            board_key=run.board_key,
            mode=run.mode,
            layout_slug=run.layout_slug,
            layout_name=run.layout_name,
            seed=run.seed,
            tiles=[dict(tile) for tile in run.tiles],
            initial_faces=run.initial_faces,
            witness=run.witness,
        )
        return _save(again, state, now)


def review_time(run_id: str, approve: bool) -> Run:
    """An admin's verdict on a clear waiting for review: approved, it ranks
    and counts as a best time from when it was played; rejected, never."""
    with transaction.atomic():
        run = Run.objects.select_for_update().get(public_id=run_id)
        if run.review != Run.Review.WAITING:
            return run
        run.review = Run.Review.APPROVED if approve else Run.Review.REJECTED
        if approve:
            _record_best(run, run.finished or current_time())
        run.save()
        return run


def give_up(run_id: str, player: Player) -> Run:
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        return _save(run, play.give_up(run.state(), now), now)


def pause_run(run_id: str, player: Player) -> Run:
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        return _save(run, play.pause(run.state(), now), now)


def resume_run(run_id: str, player: Player) -> Run:
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        return _save(run, play.resume(run.state(), now), now)


def best_times_shown(sender, player: Player, **kwargs) -> dict:
    """A player's best times for their profile page, by board (listens to
    accounts.signals.profile_shown; a player not saved yet has none)."""
    if player.pk is None:
        return {"best_times": BestTime.objects.none()}
    best = BestTime.objects.filter(player=player).select_related("run")
    return {"best_times": best.order_by("board_key")}


def merge_player_records(sender, source: Player, target: Player, **kwargs) -> None:
    """Move a guest's runs and best times to the account they sign into.

    Listens to accounts.signals.player_merging (both rows are locked). The
    better best time wins per board; where both have a run in progress on
    the same board, the one played last is kept and the other ends as lost.
    """
    now = current_time()
    for best in BestTime.objects.select_for_update().filter(player=source):
        mine = (
            BestTime.objects.select_for_update()
            .filter(player=target, board_key=best.board_key)
            .first()
        )
        if mine is None:
            best.player = target
            best.save(update_fields=["player"])
            continue
        if best.best_ms < mine.best_ms:
            mine.best_ms, mine.run_id = best.best_ms, best.run_id
            mine.achieved = best.achieved
            mine.save(update_fields=["best_ms", "run", "achieved"])
        best.delete()
    in_play = Run.objects.select_for_update().filter(status__in=play.IN_PLAY)
    for theirs in in_play.filter(player=source):
        mine = in_play.filter(player=target, board_key=theirs.board_key).first()
        if mine is not None:
            _end(mine if mine.updated < theirs.updated else theirs, now)
    Run.objects.filter(player=source).update(player=target)


def back_to_safety(run_id: str, player: Player) -> tuple[Run, Safety, play.RunState]:
    """The run after going back, what the search found, and the state it
    searched (the answer names pairs of that history)."""
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        searched = run.state()
        state, found = play.back_to_safety(searched, now)
        return _save(run, state, now), found, searched


def where_it_turned(run_id: str, player: Player) -> tuple[Run, Safety]:
    run = get_run(run_id, player)
    return run, play.where_it_turned(run.state())


def way_through(run_id: str, player: Player) -> tuple[Run, play.Way]:
    """A way through, except on a board still ranked (an open daily): there
    a full clearing, even from a given-up run, could be replayed by another
    account to the top of the leaderboard."""
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        hidden = boards.answer_hidden(run.board_key)
        if hidden is not None:
            raise Forbidden("answer_hidden", hidden.message)
        state, way = play.way_through(run.state(), now)
        return _save(run, state, now), way


def warning(run_id: str, player: Player) -> tuple[Run, bool]:
    now = current_time()
    with transaction.atomic():
        run = _locked(run_id, player)
        state, warned = play.warning(run.state(), now)
        return _save(run, state, now), warned
