"""Offline practice: the page, the Python it runs, the service worker, the manifest.

None of these needs a login or touches the database: the match is played in
the browser, and nothing is sent to the server while it lasts.
"""

from __future__ import annotations

import json

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import offline
from games.forms import PracticeForm
from games.frames.renderer_texts import table_strings
from games.hooks import PageSection, page_sections


def _page_strings(sections: list[PageSection]) -> dict:
    """Every text the page's JavaScript shows, in the page's language (the sections'
    under their own keys)."""
    strings: dict = {}
    for section in sections:
        strings.update(section.strings)
    return strings | {
        "files": list(offline.PYODIDE_FILES),
        "sizes": offline.pyodide_sizes(),
        "stages": {
            "download": _("Downloading the game engine…"),
            "start": _("Starting the game engine…"),
            "engine": _("Loading the rules and the bots…"),
        },
        "downloaded": _("{loaded} MB of {total} MB"),
        "failed": _("The game engine could not load ({reason}). Reload the page to try again."),
        # The worker words the engine's refusals itself (`illegal_action`,
        # `not_your_turn`), from the game words of `table_view`, as the server does.
        "errors": {
            "match_not_live": _("The match is over."),
            "worker_failed": _("Something went wrong in the game engine. Start a new match."),
        },
        # The player's seat's name; the worker names the bots as the live table does.
        "you": _("You"),
        # The live table's renderer (static/js/table-view.js) draws the match.
        "table_view": table_strings(),
    }


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    visitor = AnonymousUser()
    sections = page_sections("offline", user=visitor)
    context = {
        # The service worker keeps a copy of this page for when the network is
        # off: it must not carry anybody's name, so it is drawn as for a visitor.
        "user": visitor,
        "practice_form": PracticeForm(auto_id="offline_%s"),
        "pyodide_url": offline.pyodide_url(),
        "engine_url": offline.engine_url(),
        "worker_url": static("js/offline-worker.js"),
        "version": offline.offline_version(),
        "strings": _page_strings(sections),
        # What the apps above games add (a past day's daily deals, replayed unranked).
        "sections": sections,
    }
    response = render(request, "games/offline.html", context)
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline_engine(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(offline.engine_bundle(), content_type="application/json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    config = {
        "version": offline.offline_version(),
        "page": offline.page_url(),
        "urls": offline.precache_urls(),
    }
    body = render_to_string("games/service-worker.js", {"config": json.dumps(config)})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker on every visit; never let a cache answer that.
    response["Cache-Control"] = "no-cache, no-store"
    return response


@require_GET
def web_manifest(request: HttpRequest) -> JsonResponse:
    manifest = {
        "name": "Cuatrola Online",
        "short_name": "Cuatrola",
        "description": _("The Spanish card game: play online, or practise offline against bots."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbf8f1",
        "theme_color": "#0f5132",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
