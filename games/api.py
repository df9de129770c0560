"""The solo play JSON API (docs/api.md): thin views over games.actions.

Each view checks its input before anything happens, calls one action and
answers with the run's state. Errors carry a code the page can act on and,
where the run is the player's own, the current run so the page can resync.
CSRF is enforced by Django's middleware as for any form POST.
"""

import json
from collections.abc import Callable
from datetime import timedelta
from functools import wraps

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse

from accounts.models import Player
from accounts.players import current_player, known_player
from games import actions, boards
from games.errors import ActionError, Forbidden, Refused
from games.models import Run
from monitoring import metrics

# Tile ids and move counts are small; anything bigger is not a real request.
MAX_NUMBER = 10_000


class BadBody(ValueError):
    pass


def run_json(run: Run) -> dict:
    state = run.state()
    board = state.board()
    now = actions.current_time()
    since = state.clock.running_since
    return {
        "id": run.public_id,
        "board": run.board_key,
        "mode": run.mode,
        "layout": {"slug": run.layout_slug, "name": run.layout_name},
        "tiles": run.tiles,
        "removed": run.moves,
        "status": run.status,
        "elapsed_ms": run.elapsed_ms(now),
        # While a new pile builds on screen the clock has not started yet.
        "starts_in_ms": max(0, (since - now) // timedelta(milliseconds=1))
        if since
        else 0,
        "hints": run.hints,
        "shuffles": run.shuffles,
        "undos": run.undos,
        "can_shuffle": state.can_shuffle,
        "clean": run.clean,
        "stuck": state.in_play and not board.cleared and not board.has_move(),
        "best_ms": actions.best_ms(run.player, run.board_key),
        "new_best": run.set_best,
        # Won faster than a person can tap (docs/fair-play.md): never ranked.
        "too_fast": run.too_fast,
        # While a board is ranked no way through is given: when it will be.
        "way_opens": _way_opens(run.board_key),
        # A clean clear faster than the game's quickest player: "waiting" for
        # an admin before it ranks, then "approved" or "rejected".
        "review": run.review or None,
    }


def _way_opens(board_key: str) -> dict | None:
    hidden = boards.answer_hidden(board_key)
    if hidden is None:
        return None
    return {"at": hidden.opens.isoformat(), "message": hidden.message}


def _error(
    status: int, code: str, message: str, tile: int | None = None, run=None
) -> JsonResponse:
    body: dict = {"error": code, "message": message}
    if tile is not None:
        body["tile"] = tile
    if run is not None:
        body["run"] = run_json(run)
    return JsonResponse(body, status=status)


def _body(request: HttpRequest) -> dict:
    try:
        raw = request.body
    except RequestDataTooBig:
        raise BadBody("the body is too large") from None
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    # ValueError also covers a number too long for int() (over 4,300 digits)
    # and bad UTF-8; RecursionError, arrays nested thousands deep.
    except (ValueError, RecursionError):
        raise BadBody("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadBody("the body must be a JSON object")
    return data


def _number(body: dict, name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadBody(f"'{name}' must be a whole number")
    if not 0 <= value <= MAX_NUMBER:
        raise BadBody(f"'{name}' is out of range")
    return value


def endpoint(method: str, starts: bool = False) -> Callable:
    """Allow one method; give the view (request, player, body, **url args);
    turn the actions' errors into the API's error answers. Only a view that
    `starts` a run makes a visitor a guest Player; for the others a visitor
    with none has no run to find."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request: HttpRequest, **kwargs) -> JsonResponse:
            if request.method != method:
                response = _error(405, "method", f"use {method} here")
                response["Allow"] = method
                return response
            player = current_player(request) if starts else known_player(request)
            if player is None:  # a visitor with no records has no run
                return _error(404, "not_found", f"no run {kwargs.get('run_id')!r}")
            try:
                body = _body(request) if method == "POST" else {}
                return view(request, player, body, **kwargs)
            except BadBody as e:
                return _error(400, "bad_body", str(e))
            except boards.BoardLocked as e:
                return _error(403, "locked", str(e))
            except (actions.RunNotFound, boards.UnknownBoard) as e:
                return _error(404, "not_found", str(e))
            except actions.NotYourRun as e:
                return _error(403, "forbidden", str(e))
            except ActionError as e:
                run = actions.get_run(kwargs["run_id"], player)
                status = 400 if isinstance(e, Refused) else 409
                status = 403 if isinstance(e, Forbidden) else status
                return _error(status, e.code, e.message, e.tile, run)

        return wrapped

    return decorate


@endpoint("POST", starts=True)
def start(request, player: Player, body: dict) -> JsonResponse:
    key = body.get("board")
    if not isinstance(key, str) or not key:
        raise BadBody("'board' must be a board key such as \"free:turtle\"")
    fresh = body.get("fresh", False)
    if not isinstance(fresh, bool):
        raise BadBody("'fresh' must be true or false")
    run, dealt = actions.start_run(player, key, fresh=fresh)
    return JsonResponse(run_json(run), status=201 if dealt else 200)


@endpoint("GET")
def detail(request, player: Player, body: dict, run_id: str) -> JsonResponse:
    return JsonResponse(run_json(actions.get_run(run_id, player)))


@endpoint("POST")
def take(request, player: Player, body: dict, run_id: str) -> JsonResponse:
    a, b, move = _number(body, "a"), _number(body, "b"), _number(body, "move")
    run = actions.take_pair(run_id, player, a, b, move)
    metrics.MOVES.labels("solo").inc()
    return JsonResponse(run_json(run))


@endpoint("POST")
def undo(request, player: Player, body: dict, run_id: str) -> JsonResponse:
    move = _number(body, "move")
    return JsonResponse(run_json(actions.undo_move(run_id, player, move)))


@endpoint("POST")
def hint(request, player: Player, body: dict, run_id: str) -> JsonResponse:
    run, found = actions.use_hint(run_id, player)
    pair = list(found.pair) if found.pair else None
    return JsonResponse(
        {"hint": {"pair": pair, "clearable": found.clearable}, "run": run_json(run)}
    )


def _simple(action: Callable[[str, Player], Run]) -> Callable:
    """An endpoint that takes no input beyond the run id."""

    def view(request, player: Player, body: dict, run_id: str) -> JsonResponse:
        return JsonResponse(run_json(action(run_id, player)))

    view.__name__ = view.__qualname__ = action.__name__
    return endpoint("POST")(view)


shuffle = _simple(actions.shuffle_run)
restart = _simple(actions.restart_run)
give_up = _simple(actions.give_up)
pause = _simple(actions.pause_run)
resume = _simple(actions.resume_run)
