"""The tournament pages in Chromium, at 390×844 and 1280×800: no serious axe violation,
nothing wider than the screen, registering by htmx, the live region polled.

Screenshots go to SCREENSHOT_DIR when it is set."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_social import LAPTOP, PHONE, log_in, shoot
from tests.tournaments.conftest import befriend, game_finish, games_in_play, play_all
from tournaments.models import TournamentState
from tournaments.services import tournament_create, tournament_register, tournaments_tick

WIDER_THAN_SCREEN = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


@pytest.fixture(autouse=True)
def _bots_still(settings):
    settings.BOT_RUNNER = "off"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def tournament(name: str, now, **fields):
    values = {
        "name": name,
        "format": "swiss",
        "rounds": 3,
        "entry_fee": 100,
        "min_entries": 2,
        "max_entries": 64,
        "round_minutes": 30,
        "pause_minutes": 2,
        "registration_opens_at": now - timedelta(minutes=1),
        "registration_closes_at": now + timedelta(hours=1),
        "starts_at": now + timedelta(hours=1, minutes=10),
        "state": TournamentState.REGISTRATION_OPEN,
    }
    values.update(fields)
    return tournament_create(**values)


def enter_pairs(t, cast):
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=t.pk, user=a, partner=b)


@pytest.fixture
def field(make_user):
    """An open Swiss, a Swiss in its second round (five teams: a bye), a knockout in play."""
    now = timezone.now()
    ana = make_user("ana")
    friends = [make_user(name) for name in ("bea", "carmen")]
    for friend in friends:
        befriend(ana, friend)
    cast = [make_user(f"jugador{i:02d}") for i in range(18)]
    open_one = tournament(
        "Suizo del sábado",
        now,
        registration_closes_at=now + timedelta(days=2),
        starts_at=now + timedelta(days=2, minutes=10),
    )
    enter_pairs(open_one, cast[:4])
    tournament_register(tournament_id=open_one.pk, user=cast[4])
    swiss = tournament("Suizo de la tarde", now, entry_fee=0, xp_pool=500)
    enter_pairs(swiss, [ana, friends[0], *cast[:8]])
    ko = tournament("Copa eliminatoria", now, format="knockout")
    enter_pairs(ko, cast[8:18])
    later = now + timedelta(hours=1, minutes=10)
    tournaments_tick(now=later)
    play_all(swiss, winner_a=True, margin=5)
    play_all(ko, winner_a=False, margin=12)
    tournaments_tick(now=later + timedelta(minutes=1))
    tournaments_tick(now=later + timedelta(minutes=5))
    return {"ana": ana, "open": open_one, "swiss": swiss, "ko": ko}


@pytest.mark.parametrize(("size", "label"), [(PHONE, "390x844"), (LAPTOP, "1280x800")])
def test_the_tournament_pages_are_accessible_and_fit_the_screen(
    asgi_server,
    browser,
    field,
    size,
    label,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    context = browser.new_context(
        locale="es-ES", viewport=size, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, field["ana"])
    found = {}
    for name, path in (
        ("list", "/tournaments/"),
        ("open", f"/tournaments/{field['open'].pk}/"),
        ("swiss", f"/tournaments/{field['swiss'].pk}/"),
        ("knockout", f"/tournaments/{field['ko'].pk}/"),
    ):
        page.goto(asgi_server.url + path)
        found[name] = serious_violations(page, axe_script)
        assert not page.evaluate(WIDER_THAN_SCREEN), f"{name} is wider than {label}"
        shoot(page, tmp_path, f"tournaments-{name}-{label}")
    context.close()
    assert {name: v for name, v in found.items() if v} == {}


def test_registering_with_a_friend_swaps_the_entry_region(asgi_server, browser, field):
    context = browser.new_context(locale="es-ES", viewport=PHONE, service_workers="block")
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, field["ana"])
    page.goto(asgi_server.url + f"/tournaments/{field['open'].pk}/")
    page.get_by_label("Compañero").select_option("carmen")
    page.get_by_role("button", name="Inscribirme").click()
    expect(page.get_by_role("status").filter(has_text="Estás inscrito con carmen.")).to_be_visible()
    expect(page.get_by_role("button", name="Retirarme")).to_be_visible()
    # Twice from a stale form: the refusal is said in the region.
    page.goto(asgi_server.url + f"/tournaments/{field['open'].pk}/")
    page.get_by_role("button", name="Retirarme").click()
    expect(page.get_by_role("status").filter(has_text="Te has retirado.")).to_be_visible()
    context.close()


def test_the_live_region_tells_the_player_their_table(asgi_server, browser, field):
    context = browser.new_context(locale="es-ES", viewport=PHONE, service_workers="block")
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, field["ana"])
    page.goto(asgi_server.url + f"/tournaments/{field['swiss'].pk}/")
    live = page.locator("#tournament-live")
    expect(live).to_have_attribute("hx-trigger", "every 5s")
    notice = page.locator(".tournament-notice")
    expect(notice).to_contain_text("Ronda 2")
    # The player's match ends: the next poll changes the notice, said once aloud.
    ana = field["ana"].pk
    mine = next(
        g
        for g in games_in_play(field["swiss"])
        if ana in g.pairing.entry_a.player_ids
        or (g.pairing.entry_b is not None and ana in g.pairing.entry_b.player_ids)
    )
    game_finish(mine.table_id, score_a=21, score_b=9)
    announce = page.locator("#tournament-announce")
    expect(announce).to_contain_text("ha terminado", timeout=20_000)
    expect(notice).to_contain_text("ha terminado")
    context.close()


@pytest.fixture
def pause(make_user):
    """A Swiss whose round one is over and whose round two is paired (the pause), read
    by ana; and Los Ases, ana's club, with a tournament of its own."""
    from clubs import services as clubs
    from clubs.models import Admission
    from tournaments.services.clubs import club_tournament_create

    now = timezone.now()
    ana = make_user("ana")
    cast = [ana] + [make_user(f"jugador{i:02d}") for i in range(7)]
    swiss = tournament("Suizo de la tarde", now)
    enter_pairs(swiss, cast)
    later = now + timedelta(hours=1, minutes=10)
    tournaments_tick(now=later)
    play_all(swiss, winner_a=True, margin=5)
    tournaments_tick(now=timezone.now())
    club = clubs.club_create(
        user=ana, name="Los Ases", description="", language="es", admission=Admission.OPEN
    )
    for player in cast[1:4]:
        clubs.club_join(user=player, club_id=club.pk)
    club_tournament_create(
        user=ana,
        club_id=club.pk,
        name="Copa de Los Ases",
        format="swiss",
        rules="online",
        starts_at=now + timedelta(days=3),
        rounds=4,
        best_of=1,
        round_minutes=30,
        pause_minutes=2,
        entry_fee=20,
        min_entries=2,
        max_entries=16,
        registration_close_minutes=5,
    )
    return {"ana": ana, "member": cast[1], "swiss": swiss, "club": club}


@pytest.mark.parametrize(("size", "label"), [(PHONE, "390x844"), (LAPTOP, "1280x800")])
def test_the_pause_names_the_next_table_and_the_club_pages_fit(
    asgi_server,
    browser,
    pause,
    size,
    label,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    context = browser.new_context(
        locale="es-ES", viewport=size, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, pause["ana"])
    club = pause["club"].pk
    found = {}
    for name, path in (
        ("pause", f"/tournaments/{pause['swiss'].pk}/"),
        ("club", f"/clubs/{club}/"),
        ("club-new", f"/clubs/{club}/tournaments/new/"),
    ):
        page.goto(asgi_server.url + path)
        if name == "pause":
            expect(page.locator(".tournament-notice")).to_contain_text("ronda 2")
            expect(page.locator(".tournament-notice")).to_contain_text("mesa")
        if name == "club":
            expect(page.get_by_test_id("club-tournaments")).to_contain_text("Copa de Los Ases")
        found[name] = serious_violations(page, axe_script)
        assert not page.evaluate(WIDER_THAN_SCREEN), f"{name} is wider than {label}"
        shoot(page, tmp_path, f"tournaments-{name}-{label}")
    # A bad value is said next to its field.
    page.get_by_label("Inscripción (monedas por jugador, 0: gratis)").fill("5000")
    with page.expect_navigation():
        page.get_by_role("button", name="Programar el torneo").click()
    shoot(page, tmp_path, f"tournaments-club-new-error-{label}")
    expect(page.locator(".errorlist")).to_contain_text("1000")
    found["club-new-error"] = serious_violations(page, axe_script)
    page.wait_for_load_state("networkidle")
    context.close()
    assert {name: v for name, v in found.items() if v} == {}
