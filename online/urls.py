from django.urls import path, re_path

from online import views

app_name = "online"

# Table ids: digits only, at most 12 (a longer number is no table and never reaches SQL).
TABLE = r"(?P<table_id>[0-9]{1,12})"

urlpatterns = [
    path("play/online/", views.play, name="play"),
    path("play/online/join/", views.queue_join, name="queue_join"),
    path("play/online/leave/", views.queue_leave, name="queue_leave"),
    path("play/online/partner/", views.queue_partner_invite, name="queue_partner_invite"),
    re_path(
        r"^play/online/partner/(?P<invitation_id>[0-9]{1,12})/(?P<answer>accept|decline|cancel)/$",
        views.queue_partner_answer,
        name="queue_partner_answer",
    ),
    path("play/online/notice/dismiss/", views.quit_notice_dismiss, name="quit_notice_dismiss"),
    path("play/stakes/", views.stakes, name="stakes"),
    path("play/stakes/open/", views.stake_open, name="stake_open"),
    re_path(rf"^play/stakes/{TABLE}/$", views.stake_table, name="stake_table"),
    re_path(rf"^play/stakes/{TABLE}/sit/$", views.stake_sit, name="stake_sit"),
    re_path(rf"^play/stakes/{TABLE}/leave/$", views.stake_leave, name="stake_leave"),
]
