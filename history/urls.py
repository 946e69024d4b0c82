from django.urls import path, re_path

from history import views

urlpatterns = [
    path("history/", views.history, name="history"),
    path("history/matches/<int:match_id>/", views.match, name="history_match"),
    re_path(r"^u/(?P<username>[\w.]{1,40})/record/$", views.record, name="player_record"),
    path("pairs/", views.pairs, name="pair_leaderboard"),
    # Pair ids: digits only, at most 12 (a longer number is no pair and never reaches SQL).
    re_path(r"^pairs/(?P<pair_id>[0-9]{1,12})/$", views.pair, name="pair"),
]
