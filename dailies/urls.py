from django.urls import path, re_path

from dailies import fair, views

app_name = "dailies"

urlpatterns = [
    path("daily/", views.daily, name="daily"),
    path("daily/fair/", fair.fair_page, name="fair"),
    path("daily/commitments.json", fair.commitments_json, name="commitments"),
    path("daily/<str:day>/<slug:layout>.json", fair.daily_json, name="daily_json"),
    path("daily/<str:day>/", views.daily, name="daily_day"),
    path("levels/", views.levels, name="levels"),
    path("levels/<str:n>.json", fair.level_json, name="level_json"),
    # Any other .json address here answers JSON too, never the HTML 404 page.
    re_path(r"^(?:daily|levels)/.*\.json$", fair.unknown_json),
]
