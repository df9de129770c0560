"""Check a committed deal (docs/fair-deals.md) with nothing but its JSON."""

from django.core.management.base import BaseCommand, CommandError

from games.engine.board import MoveError
from games.engine.certificate import CertificateError, check_certificate
from games.engine.commitment import SCHEMES, SEEDED_SCHEME, commitment
from games.engine.deal import DealError, generate_deal
from games.engine.formats import FormatError, position_from_json
from games.engine.layout import Layout
from games.management.commands._json import read_json


def check_commitment(data: dict) -> str:
    """What the commitment proves; CommandError when it does not match."""
    promise = data.get("commitment")
    if not isinstance(promise, dict) or promise.get("scheme") not in SCHEMES:
        raise CommandError(f"no commitment of scheme {' or '.join(SCHEMES)}")
    scheme = promise["scheme"]
    secret = "deal_seed" if scheme == SEEDED_SCHEME else "salt"
    if secret not in data or "solution" not in data:
        return f"commitment present; the solution and {secret} are not revealed yet"
    try:
        digest = commitment(data["tiles"], data["solution"], str(data[secret]), scheme)
    except (KeyError, TypeError, ValueError):
        raise CommandError("the solution must be a list of [a, b] pairs") from None
    if digest != promise.get("sha256"):
        raise CommandError(
            f"the commitment does not match: the file says "
            f"{promise.get('sha256')}, the solution and {secret} give {digest}"
        )
    return f"commitment matches the solution and {secret}"


def check_dealt(data: dict) -> str:
    """Deal the board again from its deal seed with the public code: the
    tiles and the solution must come out exactly as the file has them."""
    tiles = data["tiles"]
    try:
        layout = Layout(
            slug=str(data["layout"]),
            name=str(data["layout"]),
            positions=tuple((t["x"], t["y"], t["z"]) for t in tiles),
        )
        dealt = generate_deal(layout, str(data["deal_seed"]), data.get("quads"))
    except (KeyError, TypeError, DealError) as e:
        raise CommandError(f"the deal cannot be dealt again: {e}") from None
    same_tiles = [t["id"] for t in tiles] == list(range(len(tiles))) and [
        t["face"] for t in tiles
    ] == list(dealt.faces)
    if not same_tiles or data["solution"] != [list(p) for p in dealt.solution]:
        raise CommandError("the deal seed does not deal these tiles and solution")
    return "the deal seed deals these tiles and this solution"


def check_solution(data: dict) -> str:
    """Replay the solution on the tiles; CommandError at the first bad pair."""
    position = position_from_json(data)
    board = position.board
    for step, pair in enumerate(data["solution"], start=1):
        try:
            a, b = (position.index_of(t) for t in pair)
            board.take(a, b)
        except (MoveError, FormatError, TypeError, ValueError) as e:
            raise CommandError(f"solution step {step} {pair}: {e}") from None
    if not board.cleared:
        left = board.standing.bit_count()
        raise CommandError(f"the solution leaves {left} tiles standing")
    return f"the solution clears the deal in {len(data['solution'])} pairs"


class Command(BaseCommand):
    help = (
        "Check a deal JSON from /daily/<day>/<layout>.json or /levels/<n>.json "
        "(its commitment and, once revealed, that its solution clears it), or "
        "a position with a certificate that it cannot be cleared."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="deal JSON; stdin if absent")

    def handle(self, *args, **opts):
        data = read_json(opts["file"])
        if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
            raise CommandError("not a deal: a JSON object with a 'tiles' list")
        try:
            position_from_json(data)
        except FormatError as e:
            raise CommandError(str(e)) from None
        if "certificate" in data:
            try:
                proved = check_certificate(data["tiles"], data["certificate"])
            except CertificateError as e:
                raise CommandError(f"the certificate does not hold: {e}") from None
            self.stdout.write(f"cannot be cleared: {proved}")
            return
        self.stdout.write(check_commitment(data))
        if "solution" in data:
            self.stdout.write(check_solution(data))
        if "deal_seed" in data and "solution" in data:
            self.stdout.write(check_dealt(data))
