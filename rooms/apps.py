from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "rooms"

    def ready(self) -> None:
        from accounts.signals import player_merging
        from rooms.seats import merge_player_seats

        player_merging.connect(merge_player_seats, dispatch_uid="rooms.merge")
