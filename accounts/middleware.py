from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation

from accounts.links import DEVICE_ID_ATTRIBUTE


class UserLanguageMiddleware:
    """A logged-in user's saved language wins over the cookie and the browser."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        return self.get_response(request)


class BannedUserMiddleware:
    """Ends the session of a user banned while logged in, on their very next request.

    One indexed query per authenticated request; it runs after the authentication
    and message middlewares so the page can explain why.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            from accounts.selectors import ban_in_force
            from accounts.views import banned_response

            ban = ban_in_force(user.pk)
            if ban is not None:
                logout(request)
                response = banned_response(request, ban)
                return response.render()
        return self.get_response(request)


class DeviceCookieMiddleware:
    """Sets the device cookie on the answer to a request that signed someone in
    (accounts.receivers.record_sign_in left the id on it): first-party, HttpOnly,
    SameSite=Lax, Secure under HTTPS, DEVICE_COOKIE_DAYS long, renewed at each
    sign-in. It identifies the browser to the linked-accounts check and nothing else
    (docs/moderation.md, "Linked accounts")."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        device_id = getattr(request, DEVICE_ID_ATTRIBUTE, None)
        if device_id:
            response.set_cookie(
                settings.DEVICE_COOKIE_NAME,
                device_id,
                max_age=settings.DEVICE_COOKIE_DAYS * 24 * 60 * 60,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
