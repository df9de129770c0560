from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy

from accounts.models import DISPLAY_NAME_MAX, Player
from accounts.password_help import password_help


class DisplayNameForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["display_name"]
        labels = {"display_name": gettext_lazy("Display name")}

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        if not name:
            raise forms.ValidationError(gettext_lazy("A display name cannot be blank."))
        return name


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(
        max_length=DISPLAY_NAME_MAX,
        required=False,
        help_text=gettext_lazy(
            "Shown to other players. Leave blank to use your username."
        ),
        label=gettext_lazy("Display name"),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password1"].help_text = password_help()

    def clean_display_name(self) -> str:
        return " ".join(self.cleaned_data["display_name"].split())
