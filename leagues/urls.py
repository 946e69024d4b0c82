from django.urls import path

from leagues import views

urlpatterns = [
    path("league/", views.league, name="league"),
    path("league/weeks/", views.league_weeks, name="league_weeks"),
    path("league/weeks/<int:week_id>/", views.league_week, name="league_week"),
]
