from django.apps import AppConfig


class DailiesConfig(AppConfig):
    name = "dailies"

    def ready(self) -> None:
        from dailies.boards import register

        register()
