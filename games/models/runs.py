"""Solo runs and best times.

A Run keeps a snapshot of its deal (tile spots and faces), so it replays the
same whatever later happens to layouts, plus the log of pairs taken and the
server's clock. The rules live in games.play; changes go through
games.actions, never by saving a Run directly.
"""

import secrets
from datetime import datetime

from django.db import models

from games import boards, play


def new_run_id() -> str:
    return "r_" + secrets.token_urlsafe(9)


class Run(models.Model):
    class Status(models.TextChoices):
        PLAYING = play.PLAYING
        PAUSED = play.PAUSED
        WON = play.WON
        LOST = play.LOST

    class Review(models.TextChoices):
        """A ranked clear faster than the game's quickest player ranks only
        once an admin approves it (games.pace.needs_review)."""

        NONE = "", "not needed"
        WAITING = "waiting", "waiting"
        APPROVED = "approved", "approved"
        REJECTED = "rejected", "rejected"

    public_id = models.CharField(
        max_length=24, unique=True, default=new_run_id, editable=False
    )
    player = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, related_name="runs"
    )
    board_key = models.CharField(max_length=boards.MAX_KEY_LENGTH)
    mode = models.CharField(max_length=16)
    layout_slug = models.CharField(max_length=64)
    layout_name = models.CharField(max_length=100)
    # The deal: seed as given to the engine (a str or an int: they differ),
    # tiles as [{"id", "x", "y", "z", "face"}] with the current faces, the
    # faces as dealt, and the engine's witness that the deal clears.
    seed = models.JSONField()
    tiles = models.JSONField()
    initial_faces = models.JSONField()
    witness = models.JSONField()
    moves = models.JSONField(default=list)  # [[a, b], ...] in the order taken
    # The run's clock (ms) when each of those pairs was taken (games.pace).
    move_ms = models.JSONField(default=list)
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.PLAYING
    )
    # The clock: milliseconds banked, plus the time since running_since while
    # it runs (running_since may lie a moment ahead while the pile builds).
    banked_ms = models.BigIntegerField(default=0)
    running_since = models.DateTimeField(null=True, blank=True)
    hints = models.PositiveIntegerField(default=0)
    shuffles = models.PositiveIntegerField(default=0)
    undos = models.PositiveIntegerField(default=0)
    set_best = models.BooleanField(default=False)
    # A win whose pairs came faster than a person can tap (games.pace): kept
    # and shown to admins, never a best time or on a leaderboard.
    too_fast = models.BooleanField(default=False, db_index=True)
    review = models.CharField(
        max_length=8, choices=Review.choices, default=Review.NONE, blank=True
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # A reload resumes the one run in progress on each board, and a
            # daily in progress never overwrites a level in progress.
            models.UniqueConstraint(
                fields=["player", "board_key"],
                condition=models.Q(status__in=play.IN_PLAY),
                name="one_run_in_progress_per_board",
            )
        ]
        indexes = [models.Index(fields=["player", "board_key", "status"])]

    def __str__(self) -> str:
        return f"{self.public_id} {self.board_key} ({self.status})"

    @property
    def clean(self) -> bool:
        return self.hints == 0 and self.shuffles == 0

    @property
    def pairs(self) -> int:
        return len(self.tiles) // 2

    @property
    def pair_ms(self) -> list[int]:
        """How long each pair took, from the server's stamps (games.pace)."""
        return [b - a for a, b in zip([0, *self.move_ms], self.move_ms, strict=False)]

    def state(self) -> play.RunState:
        positions = tuple((t["x"], t["y"], t["z"]) for t in self.tiles)
        return play.RunState(
            layout=play.layout_of(self.layout_slug, self.layout_name, positions),
            faces=tuple(t["face"] for t in self.tiles),
            initial_faces=tuple(self.initial_faces),
            moves=tuple((a, b) for a, b in self.moves),
            status=self.status,
            clock=play.Clock(self.banked_ms, self.running_since),
            can_shuffle=boards.can_shuffle(self.mode),
            hints=self.hints,
            shuffles=self.shuffles,
            undos=self.undos,
            witness=tuple((a, b) for a, b in self.witness),
            move_ms=tuple(self.move_ms),
        )

    def set_state(self, state: play.RunState, now: datetime) -> None:
        """Copy a new state from the rules onto this row (not saved)."""
        for tile, face in zip(self.tiles, state.faces, strict=True):
            tile["face"] = face
        self.moves = [list(pair) for pair in state.moves]
        self.move_ms = list(state.move_ms)
        if self.status in play.IN_PLAY and state.status not in play.IN_PLAY:
            self.finished = now
        self.status = state.status
        self.banked_ms = state.clock.banked_ms
        self.running_since = state.clock.running_since
        self.hints, self.shuffles, self.undos = state.hints, state.shuffles, state.undos

    def elapsed_ms(self, now: datetime) -> int:
        return play.Clock(self.banked_ms, self.running_since).elapsed_ms(now)


class BestTime(models.Model):
    """A player's best clean clear on one board key."""

    player = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, related_name="best_times"
    )
    board_key = models.CharField(max_length=boards.MAX_KEY_LENGTH)
    layout_name = models.CharField(max_length=100)
    best_ms = models.BigIntegerField()
    run = models.ForeignKey(Run, null=True, blank=True, on_delete=models.SET_NULL)
    achieved = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "board_key"], name="one_best_time_per_board"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.board_key} {self.best_ms} ms"

    @property
    def clock(self) -> str:
        """The time as a clock shows it, m:ss."""
        seconds = self.best_ms // 1000
        return f"{seconds // 60}:{seconds % 60:02d}"


class TimeForReview(Run):
    """The admin's list of clears waiting for review (games.admin)."""

    class Meta:
        proxy = True
        verbose_name = "time waiting for review"
        verbose_name_plural = "times waiting for review"
