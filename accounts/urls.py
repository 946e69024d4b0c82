from django.urls import re_path

from accounts import views

urlpatterns = [
    # Only characters a username can hold reach the database (a NUL byte would not).
    re_path(r"^u/(?P<username>[\w.]{1,40})/$", views.profile, name="profile"),
    re_path(r"^u/(?P<username>[\w.]{1,40})/report/$", views.report, name="profile_report"),
]
