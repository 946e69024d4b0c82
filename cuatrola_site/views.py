import logging
from datetime import UTC, datetime
from typing import Any

from allauth.account.adapter import get_adapter
from allauth.core.internal.ratelimit import handler429
from django.apps import apps
from django.conf import settings
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseServerError,
)
from django.template import loader
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.services import user_set_language
from cuatrola.engine import parse_card, rule_set
from cuatrola.engine.core import CARD_POINTS
from games.models import MatchSeat, MatchStatus
from games.words.translated import bid_label, card_label

# Our own apps (not Django's or allauth's): the packages whose djangojs catalogues
# the JavaScript catalogue serves, besides LOCALE_PATHS.
TRANSLATED_APPS = [
    config.name
    for config in apps.get_app_configs()
    if config.path.startswith(str(settings.BASE_DIR)) and ".venv" not in config.path
]
_STARTED = datetime.now(tz=UTC)


def catalogue_last_modified(request: HttpRequest, *args: Any, **kwargs: Any) -> datetime:
    """The catalogues change only with a deploy, i.e. a restart: browsers revalidate cheaply."""
    return _STARTED


def example_cards(codes: str) -> list[dict[str, str]]:
    """Cards for the examples of "How to play", named in the reader's language."""
    return [{"code": code, "suit": code[-1], "name": card_label(code)} for code in codes.split()]


def how_to_play(request: HttpRequest) -> HttpResponse:
    """Both rule sets explained; the figures come from the engine's rule sets."""
    return TemplateResponse(
        request,
        "how_to_play.html",
        {
            "online": rule_set("online"),
            "classic": rule_set("classic"),
            "bids": {word: bid_label(word) for word in ("solo", "cuatrola", "quintola")},
            "card_points": [
                {"name": card_label(code), "points": CARD_POINTS[parse_card(code)]}
                for code in ("1o", "3o", "12o", "11o", "10o")
            ],
            "examples": {
                "suit_order": example_cards("1o 3o 12o 11o 10o"),
                "must_beat": example_cards("1o 10o 12b 11c 3e"),
                "declaration": example_cards("12c 11c"),
            },
            "turn_card": int(settings.TURN_SECONDS_CARD),
            "turn_bid": int(settings.TURN_SECONDS_BID),
        },
    )


def home(request: HttpRequest) -> HttpResponse:
    """What the game is and how to start; a newcomer is welcomed, not welcomed back."""
    user = request.user
    has_played = (
        user.is_authenticated
        and MatchSeat.objects.filter(user=user, match__status=MatchStatus.FINISHED).exists()
    )
    return TemplateResponse(
        request,
        "home.html",
        {
            "has_played": has_played,
            "target": rule_set("online").target,
            "fill_seconds": int(settings.ONLINE_BOT_FILL_SECONDS),
        },
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, also remembered on the account when logged in."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and check_for_language(language):
        user_set_language(user=request.user, language=language)
    return response


def _error_page(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    """The error page; to an htmx request its short message only (`data-refusal`), which
    static/js/htmx-refusals.js shows beside the form or link that asked."""
    context = {"status": status, "title": title, "message": message}
    if request.headers.get("HX-Request") == "true":
        return TemplateResponse(request, "_refusal.html", context, status=status).render()
    return TemplateResponse(request, "error.html", context, status=status).render()


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error_page(
        request,
        400,
        _("Bad request"),
        _(
            "The page could not understand that request. "
            "Check the address, or go back and try again."
        ),
    )


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error_page(
        request,
        403,
        _("Not allowed"),
        _(
            "You do not have access to this page. "
            "If you think you should, log in with the right account."
        ),
    )


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error_page(
        request,
        404,
        _("Page not found"),
        _("There is nothing at this address. It may have moved, or the link may be wrong."),
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """Rendered without the request: the site's layout reads the database, which may be
    what failed. The language of the request is still the active one."""
    return HttpResponseServerError(loader.render_to_string("500.html"))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without a valid CSRF token (an old tab, blocked cookies)."""
    return _error_page(
        request,
        403,
        _("This form has expired"),
        _(
            "For your safety the form could not be sent: it was open for too long, or your "
            "browser blocked cookies. Go back, reload the page and try again."
        ),
    )


def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponsePermanentRedirect(static("icons/icon.svg"))


security_log = logging.getLogger("cuatrola.security")


def too_many_requests(request: HttpRequest) -> HttpResponse:
    """allauth's rate-limit page (429), with the refusal logged for staff."""
    security_log.warning(
        "rate limit: %s %s refused for %s",
        request.method,
        request.path,
        get_adapter(request).get_client_ip(request),
    )
    return handler429(request)
