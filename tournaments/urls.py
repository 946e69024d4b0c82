from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("tournaments/<int:tournament_id>/register/", views.register, name="register"),
    path("tournaments/<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    # The tournament's region on a tournament table's page (TournamentPolicy.table_panel_url).
    path("tournaments/tables/<int:table_id>/", views.table_panel, name="table_panel"),
    # A club's owner or admins schedule a tournament for the members (docs/tournaments.md).
    path("clubs/<int:club_id>/tournaments/new/", views.club_tournament_new, name="club_new"),
]
