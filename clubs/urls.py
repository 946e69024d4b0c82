from django.urls import re_path

from clubs import views

app_name = "clubs"

# Ids: digits only, at most 12 (a longer number is no row and never reaches SQL).
CLUB = r"(?P<club_id>[0-9]{1,12})"

urlpatterns = [
    re_path(r"^clubs/$", views.club_list, name="list"),
    re_path(r"^clubs/new/$", views.club_create, name="create"),
    re_path(rf"^clubs/{CLUB}/$", views.club_page, name="club"),
    re_path(rf"^clubs/{CLUB}/manage/$", views.club_manage, name="manage"),
    re_path(
        rf"^clubs/{CLUB}/(?P<action>join|leave|cancel|close)/$", views.club_action, name="action"
    ),
    re_path(rf"^clubs/{CLUB}/settings/$", views.club_settings, name="settings"),
    re_path(rf"^clubs/{CLUB}/transfer/$", views.club_transfer, name="transfer"),
    re_path(
        r"^clubs/requests/(?P<request_id>[0-9]{1,12})/(?P<answer>accept|decline)/$",
        views.request_answer,
        name="request_answer",
    ),
    re_path(rf"^clubs/{CLUB}/members/remove/$", views.member_remove, name="member_remove"),
    re_path(rf"^clubs/{CLUB}/members/role/$", views.member_role, name="member_role"),
    re_path(rf"^clubs/{CLUB}/announce/$", views.announce, name="announce"),
    re_path(
        r"^clubs/announcements/(?P<announcement_id>[0-9]{1,12})/delete/$",
        views.announcement_delete,
        name="announcement_delete",
    ),
    re_path(rf"^clubs/{CLUB}/table/$", views.table_open, name="table_open"),
    re_path(rf"^clubs/{CLUB}/table/invite/$", views.table_invite, name="table_invite"),
]
