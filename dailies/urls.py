from django.urls import path
from django.views.generic import TemplateView

from dailies import fair, views

app_name = "dailies"

urlpatterns = [
    path("daily/", views.daily, name="daily"),
    path(
        "daily/fair/",
        TemplateView.as_view(template_name="dailies/fair.html"),
        name="fair",
    ),
    path("daily/<str:day>/<slug:layout>.json", fair.daily_json, name="daily_json"),
    path("daily/<str:day>/", views.daily, name="daily_day"),
    path("levels/", views.levels, name="levels"),
    path("levels/<int:n>.json", fair.level_json, name="level_json"),
]
