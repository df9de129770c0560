"""Check a committed deal (docs/fair-deals.md) with nothing but its JSON."""

from django.core.management.base import BaseCommand, CommandError

from games.engine.board import MoveError
from games.engine.certificate import CertificateError, check_certificate
from games.engine.commitment import SCHEME, commitment
from games.engine.formats import FormatError, position_from_json
from games.management.commands._json import read_json


def check_commitment(data: dict) -> str:
    """What the commitment proves; CommandError when it does not match."""
    promise = data.get("commitment")
    if not isinstance(promise, dict) or promise.get("scheme") != SCHEME:
        raise CommandError(f"no commitment of scheme {SCHEME} in the file")
    if "salt" not in data or "solution" not in data:
        return "commitment present; the solution and salt are not revealed yet"
    try:
        digest = commitment(data["tiles"], data["solution"], str(data["salt"]))
    except (KeyError, TypeError, ValueError):
        raise CommandError("the solution must be a list of [a, b] pairs") from None
    if digest != promise.get("sha256"):
        raise CommandError(
            f"the commitment does not match: the file says "
            f"{promise.get('sha256')}, the solution and salt give {digest}"
        )
    return "commitment matches the solution and salt"


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
