from django.urls import path, re_path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.notification_list, name="list"),
    path("notifications/count/", views.bell, name="bell"),
    path("notifications/unread/", views.unread, name="unread"),
    re_path(r"^notifications/(?P<notification_id>[^/]+)/read/$", views.read, name="read"),
    path("notifications/read-all/", views.read_all, name="read_all"),
    path("notifications/settings/", views.settings_page, name="settings"),
    path("notifications/push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("notifications/push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
]
