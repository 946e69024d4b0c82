from django.urls import path

from ratings import views

urlpatterns = [
    path("ratings/", views.leaderboard, name="leaderboard"),
]
