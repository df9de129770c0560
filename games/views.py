from django.shortcuts import render

from games.layouts import playable_layouts


def home(request):
    return render(request, "home.html", {"layouts": playable_layouts()})
