from django import forms
from django.utils.translation import gettext_lazy

from rooms.models import CODE_LENGTH, NAME_MAX


class NameForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Your name"), max_length=NAME_MAX, strip=True
    )


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Room code"), max_length=CODE_LENGTH + 4, strip=True
    )

    def clean_code(self) -> str:
        # People type codes with spaces and in lower case.
        return "".join(self.cleaned_data["code"].split()).upper()


class JoinForm(CodeForm, NameForm):
    pass


class WatchForm(CodeForm):
    pass
