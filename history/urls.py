from django.urls import path, re_path

from history import views

urlpatterns = [
    path("history/", views.history, name="history"),
    path("history/matches/<int:match_id>/", views.match, name="history_match"),
    re_path(r"^u/(?P<username>[\w.]{1,40})/record/$", views.record, name="player_record"),
]
