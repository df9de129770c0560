from django.apps import AppConfig


class DailiesConfig(AppConfig):
    name = "dailies"
