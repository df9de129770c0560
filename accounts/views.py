"""Account pages: sign up, sign in, sign out, password, profile, display name.

Signing up or in folds the device's guest (its runs and best times) into the
account, so nothing played before signing in is lost.
"""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts import devices
from accounts.forms import DisplayNameForm, SignUpForm
from accounts.models import Player
from accounts.password_help import password_help
from accounts.players import (
    GUEST_COOKIE,
    claim_guest,
    current_player,
    guest_from_cookie,
    known_player,
)
from accounts.sign_ins import failed_since_previous
from accounts.signals import profile_shown
from accounts.throttle import BY_ADDRESS, SIGN_IN, Throttle, by_user, throttled


def _forget_guest(response: HttpResponseRedirect) -> HttpResponseRedirect:
    # The guest is now the account (or merged into it); the cookie is spent.
    response.delete_cookie(GUEST_COOKIE, samesite="Lax")
    return response


@throttled(Throttle("sign_up", BY_ADDRESS))
def signup(request):
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    guest = guest_from_cookie(request)
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            player = claim_guest(guest, user)
            player.display_name = (
                form.cleaned_data["display_name"] or user.get_username()[:32]
            )
            player.save(update_fields=["display_name"])
            login(request, user)
            messages.success(request, gettext("Welcome! Your account is ready."))
            return _forget_guest(redirect("accounts:profile"))
    else:
        initial = {"display_name": guest.display_name} if guest else {}
        form = SignUpForm(initial=initial)
    return render(request, "accounts/signup.html", {"form": form, "guest": guest})


@method_decorator(throttled(*SIGN_IN), name="dispatch")
class SignInView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["known_device"] = devices.is_known(self.request)
        return context

    def form_valid(self, form):
        guest = guest_from_cookie(self.request)
        response = super().form_valid(form)
        claim_guest(guest, form.get_user())
        return _forget_guest(response)


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        form.fields["new_password1"].help_text = password_help()
        return form

    def form_valid(self, form):
        messages.success(self.request, gettext("Your password was changed."))
        return super().form_valid(form)


def _profile_page(request, player, name_form, status=200):
    context = {"player": player, "name_form": name_form}
    if player.user_id is not None:
        context["sign_in_attempts"] = failed_since_previous(player.user)
    for _, added in profile_shown.send(sender=Player, player=player):
        context.update(added)
    return render(request, "accounts/profile.html", context, status=status)


def profile(request):
    # A first visit shows a guest-to-be (not saved: nothing to keep yet).
    player = known_player(request) or Player()
    return _profile_page(request, player, DisplayNameForm(instance=player))


@require_POST
def display_name(request):
    player = current_player(request)
    form = DisplayNameForm(request.POST, instance=player)
    if form.is_valid():
        form.save()
        messages.success(request, gettext("Display name saved."))
        return redirect("accounts:profile")
    return _profile_page(request, player, form, status=400)


password_change = login_required(
    throttled(Throttle("password_change", by_user))(PasswordChangeView.as_view())
)
