# The guest cookie names a random token, not the row's id: each existing
# player gets one (an old cookie still finds its guest once, and is then
# replaced: accounts.players).

from django.db import migrations, models

import accounts.models


def give_tokens(apps, schema_editor):
    Player = apps.get_model("accounts", "Player")
    for player in Player.objects.filter(guest_token__isnull=True).only("pk"):
        player.guest_token = accounts.models.new_guest_token()
        player.save(update_fields=["guest_token"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_player")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="guest_token",
            field=models.CharField(max_length=32, null=True),  # noqa: DJ001
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="guest_token",
            field=models.CharField(
                default=accounts.models.new_guest_token,
                max_length=32,
                unique=True,
            ),
        ),
    ]
