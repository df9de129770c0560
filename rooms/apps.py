from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"

    def ready(self) -> None:
        from accounts.signals import player_merging
        from games.errors import add_wordings
        from rooms.seats import merge_player_seats
        from rooms.wording import WORDINGS

        add_wordings(WORDINGS)
        player_merging.connect(merge_player_seats, dispatch_uid="rooms.merge")
