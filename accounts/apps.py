from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from accounts import sign_ins, staff_sessions

        staff_sessions.connect()
        sign_ins.connect()
