from django.urls import re_path

from social import partner_views, views

app_name = "social"

# Request ids: digits only, at most 12 (a longer number is no request and never reaches SQL).
REQUEST = r"(?P<request_id>[0-9]{1,12})"

urlpatterns = [
    re_path(r"^friends/$", views.friends, name="friends"),
    re_path(r"^friends/request/$", views.request_send, name="request_send"),
    re_path(
        rf"^friends/requests/{REQUEST}/(?P<answer>accept|decline|cancel)/$",
        views.request_answer,
        name="request_answer",
    ),
    re_path(r"^friends/remove/$", views.friend_remove, name="friend_remove"),
    re_path(r"^friends/invite/$", views.invite, name="invite"),
    re_path(r"^friends/block/$", views.block, name="block"),
    re_path(r"^friends/unblock/$", views.unblock, name="unblock"),
    re_path(r"^friends/privacy/$", views.privacy, name="privacy"),
    # Partners (docs/social.md, "Partners").
    re_path(r"^friends/partners/$", partner_views.partners, name="partners"),
    re_path(
        r"^friends/partners/request/$",
        partner_views.partner_request_send,
        name="partner_request_send",
    ),
    re_path(
        rf"^friends/partners/requests/{REQUEST}/(?P<answer>accept|decline|cancel)/$",
        partner_views.partner_request_answer,
        name="partner_request_answer",
    ),
    re_path(
        r"^friends/partners/(?P<pair_id>[0-9]{1,12})/dissolve/$",
        partner_views.partnership_dissolve,
        name="partnership_dissolve",
    ),
    re_path(r"^friends/partners/mark/$", partner_views.partner_mark_set, name="partner_mark_set"),
    re_path(
        r"^friends/partners/unmark/$",
        partner_views.partner_mark_remove,
        name="partner_mark_remove",
    ),
    # Any name reaches the view, which answers a bad one with its page (never a 500).
    re_path(r"^friends/(?P<username>[^/]+)/watch/$", views.follow, name="follow"),
]
