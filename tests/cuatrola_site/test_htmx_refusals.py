"""Refusals through htmx carry a short message in the reader's language
(docs/architecture.md, "Refusals through htmx"): htmx 2 swaps no 4xx answer, so
static/js/htmx-refusals.js shows the message (an element marked `data-refusal`) beside
what asked, or swaps a region redrawn with its refusal. Every page loads that script
with htmx."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from tests.coach.conftest import QUINTOLA_FAILS, failing_quintola_deals, store_one_hand

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
HTMX = {"HX-Request": "true"}
SPANISH = {"Accept-Language": "es"}


def refusal_texts(body: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", found).strip()
        for found in re.findall(r"<[^>]+data-refusal[^>]*>(.*?)</", body, re.S)
    ]


def test_a_missing_page_asked_by_htmx_answers_its_message_alone(client, player):
    client.force_login(player)
    response = client.get("/history/matches/999999/", headers={**HTMX, **SPANISH})
    body = response.content.decode()
    assert response.status_code == 404
    assert "<html" not in body and 'role="alert"' in body
    assert refusal_texts(body) == [
        "Página no encontrada",
        "No hay nada en esta dirección. Puede que se haya movido o que el enlace sea incorrecto.",
    ]


def test_the_error_page_itself_marks_its_message_for_the_script(client, player):
    client.force_login(player)
    response = client.get("/history/matches/999999/", headers=SPANISH)
    body = response.content.decode()
    assert response.status_code == 404 and "<html" in body
    assert refusal_texts(body)[0] == "Página no encontrada"


def test_an_expired_form_sent_by_htmx_says_so(player):
    client = Client(enforce_csrf_checks=True, headers=SPANISH)
    client.force_login(player)
    response = client.post("/friends/block/", {"username": "zoe"}, headers=HTMX)
    body = response.content.decode()
    assert response.status_code == 403 and "<html" not in body
    assert refusal_texts(body)[0] == "Este formulario ha caducado"


def test_the_coachs_refusal_redraws_its_region_with_the_reason(player, settings):
    first, _ = failing_quintola_deals()
    match = store_one_hand([player, None, None, None], first, QUINTOLA_FAILS)
    settings.COACH_DAILY_ANALYSES = 0
    client = Client(headers=SPANISH)
    client.force_login(player)
    response = client.post(
        f"/coach/matches/{match.pk}/analyse/", headers={**HTMX, "HX-Target": "coach"}
    )
    body = response.content.decode()
    assert response.status_code == 429
    assert "<html" not in body and 'id="coach"' in body
    assert re.search(r'role="alert">Ya has usado los análisis de hoy\.', body)


def test_every_page_loads_the_refusals_script_after_htmx(client):
    body = client.get("/").content.decode()
    htmx = body.index("vendor/htmx/htmx-2.0.11.min.js")
    assert body.index("js/htmx-refusals.js") > htmx
    # Every template that asks through htmx is drawn inside base.html (or is a region of
    # a page that is).
    for path in ROOT.glob("*/templates/**/*.html"):
        text = path.read_text()
        if re.search(r"hx-(get|post)=", text) and "{% extends" in text:
            assert re.search(r'{% extends "(base|[a-z_]+/base)\.html" %}', text), path
