from django.urls import path

from games import offline_views, views

app_name = "games"

urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("play/invitations/", views.lobby_invitations, name="lobby_invitations"),
    path("play/practice/", views.practice_create, name="practice_create"),
    path("play/offline/", offline_views.offline_page, name="offline"),
    path("play/offline/engine.json", offline_views.offline_engine, name="offline_engine"),
    path("play/rooms/", views.room_create, name="room_create"),
    path(
        "play/invitations/<int:invitation_id>/<str:answer>/",
        views.invitation_answer,
        name="invitation_answer",
    ),
    path("watch/", views.watch_list, name="watch_list"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/board/", views.table_board, name="board"),
    path("tables/<int:table_id>/play/", views.table_play, name="play"),
    path("tables/<int:table_id>/invite/", views.room_invite, name="invite"),
    path("tables/<int:table_id>/settings/", views.room_settings, name="settings"),
    path("tables/<int:table_id>/seats/", views.room_seats, name="seats"),
    path("tables/<int:table_id>/start/", views.room_start, name="start"),
    path("tables/<int:table_id>/leave/", views.table_leave, name="leave"),
    path("tables/<int:table_id>/again/", views.table_again, name="again"),
]
