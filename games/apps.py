from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from accounts.signals import player_merging, profile_shown
        from games import free_play
        from games.actions import best_times_shown, merge_player_records
        from games.errors import add_wordings
        from games.wording import WORDINGS

        add_wordings(WORDINGS)
        free_play.register()

        player_merging.connect(merge_player_records, dispatch_uid="games.merge")
        profile_shown.connect(best_times_shown, dispatch_uid="games.profile")
