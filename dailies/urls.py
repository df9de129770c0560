from django.urls import path

from dailies import views

app_name = "dailies"

urlpatterns = [
    path("daily/", views.daily, name="daily"),
    path("daily/<str:day>/", views.daily, name="daily_day"),
    path("levels/", views.levels, name="levels"),
]
