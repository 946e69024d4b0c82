from allauth.account.decorators import secure_admin_login
from allauth.account.views import SignupView
from django.contrib import admin
from django.db import transaction
from django.urls import include, path
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

from cuatrola_site import monitoring, views
from games import offline_views

# The admin signs in through allauth's log-in page: one form, one set of rate limits
# (failed attempts per account and per client address), lock-outs logged.
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("", views.home, name="home"),
    # At the root, so that the service worker's scope is the whole site.
    path("sw.js", offline_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline_views.web_manifest, name="web_manifest"),
    path("how-to-play/", views.how_to_play, name="how_to_play"),
    path("favicon.ico", views.favicon),
    path("metrics", monitoring.MetricsView.as_view(), name="metrics"),
    path("admin/live/", admin.site.admin_view(monitoring.live_view), name="admin_live"),
    path("admin/", admin.site.urls),
    # Sign-up in one transaction: the look-alike check and the new user commit
    # together (accounts.services.username_key_lock).
    path("accounts/signup/", transaction.atomic(SignupView.as_view()), name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("i18n/setlang/", views.set_language, name="set_language"),
    path(
        "jsi18n/",
        last_modified(views.catalogue_last_modified)(
            JavaScriptCatalog.as_view(packages=views.TRANSLATED_APPS)
        ),
        name="javascript-catalog",
    ),
    path("", include("accounts.urls")),
    path("", include("economy.urls")),
    path("", include("leagues.urls")),
    path("", include("ratings.urls")),
    path("", include("games.urls")),
    path("", include("history.urls")),
    path("", include("online.urls")),
    path("", include("daily.urls")),
    path("", include("social.urls")),
    path("", include("clubs.urls")),
    path("", include("coach.urls")),
    path("", include("tournaments.urls")),
    path("", include("notifications.urls")),
]

handler400 = "cuatrola_site.views.bad_request"
handler403 = "cuatrola_site.views.permission_denied"
handler404 = "cuatrola_site.views.page_not_found"
handler429 = "cuatrola_site.views.too_many_requests"

handler500 = "cuatrola_site.views.server_error"
