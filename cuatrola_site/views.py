import logging
from datetime import UTC, datetime

from allauth.account.adapter import get_adapter
from allauth.core.internal.ratelimit import handler429
from django.apps import apps
from django.conf import settings
from django.template.response import TemplateResponse
from django.utils.translation import check_for_language
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.services import user_set_language

# Our own apps (not Django's or allauth's): the packages whose djangojs catalogues
# the JavaScript catalogue serves, besides LOCALE_PATHS.
TRANSLATED_APPS = [
    config.name
    for config in apps.get_app_configs()
    if config.path.startswith(str(settings.BASE_DIR)) and ".venv" not in config.path
]
_STARTED = datetime.now(tz=UTC)


def catalogue_last_modified(request, *args, **kwargs):
    """The catalogues change only with a deploy, i.e. a restart: browsers revalidate cheaply."""
    return _STARTED


def home(request):
    return TemplateResponse(request, "home.html")


@require_POST
def set_language(request):
    """Django's language switch, also remembered on the account when logged in."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and check_for_language(language):
        user_set_language(user=request.user, language=language)
    return response


def page_not_found(request, exception):
    return TemplateResponse(request, "404.html", status=404)


security_log = logging.getLogger("cuatrola.security")


def too_many_requests(request):
    """allauth's rate-limit page (429), with the refusal logged for staff."""
    security_log.warning(
        "rate limit: %s %s refused for %s",
        request.method,
        request.path,
        get_adapter(request).get_client_ip(request),
    )
    return handler429(request)
