from collections.abc import Callable

from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation


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
