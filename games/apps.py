from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from accounts.signals import player_merging
        from games.actions import merge_player_records

        player_merging.connect(merge_player_records, dispatch_uid="games.merge")
