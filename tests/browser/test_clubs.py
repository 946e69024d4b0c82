"""Clubs in Chromium, at a phone's size (390×844) and a laptop's (1280×800): a player
creates a club by request from the form, another asks to join, the owner accepts
from the management page; every clubs page is axe-clean (no serious or critical
violation), no wider than the screen, nothing cut at its edge. Screenshots go to
SCREENSHOT_DIR when it is set."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from clubs import services
from clubs.models import Club
from ratings.models import Rating
from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_phone_pages import CONTROLS_OUT_OF_SIGHT, INNER_SCROLLERS, PAST_THE_EDGE
from tests.browser.test_social import LAPTOP, PHONE, log_in, shoot
from tests.history.conftest import store_finished


@pytest.fixture(autouse=True)
def _bots_still(settings):
    settings.BOT_RUNNER = "off"


def _context(browser, viewport):
    context = browser.new_context(
        locale="es-ES", viewport=viewport, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    return context


def _check(page, axe, size) -> list[str]:
    problems = []
    if serious_violations(page, axe):
        problems.append(f"axe: {serious_violations(page, axe)}")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > size["width"]:
        problems.append(f"width {width}")
    for what, script in (("inner", INNER_SCROLLERS), ("controls", CONTROLS_OUT_OF_SIGHT)):
        found = page.evaluate(script)
        if found:
            problems.append(f"{what}: {found}")
    edge = page.evaluate(PAST_THE_EDGE, size["width"])
    if edge:
        problems.append(f"edge: {edge}")
    return problems


def test_a_club_is_created_joined_by_request_and_every_page_is_clean(
    asgi_server,
    browser,
    make_user,
    player,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    bea = make_user("bea")
    members = [make_user(name) for name in ("carlos", "dora", "elena", "fermín")]
    Rating.objects.create(user=members[0], value=1640, matches=12)

    owner_context = _context(browser, PHONE)
    page = owner_context.new_page()
    log_in(page, asgi_server, player)
    page.goto(asgi_server.url + "/clubs/new/")
    page.locator("#id_name").fill("Peña de los Ases")
    page.locator("#id_description").fill("Jugamos los martes a las 21.30.\n¡Ven!")
    page.get_by_label("Por solicitud: los administradores aceptan a cada miembro").check()
    page.get_by_role("button", name="Crear el club").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Peña de los Ases")
    club = Club.objects.get()
    for user in members:
        request = services.club_join(user=user, club_id=club.pk)
        services.request_accept(user=player, request_id=request.pk)
    store_finished([player, members[0], members[1], None], 2)
    from clubs.receivers import on_match_finished
    from games.models import Match, MatchSeat

    for match in Match.objects.all():
        seats = list(MatchSeat.objects.filter(match=match))
        on_match_finished(None, match=match, table=match.table, match_seats=seats, engine=None)
    services.announcement_post(
        user=player, club_id=club.pk, text="Torneo interno el sábado a las 18 h."
    )

    # bea asks to join; the owner's management page shows it live and accepts.
    bea_context = _context(browser, PHONE)
    bea_page = bea_context.new_page()
    log_in(bea_page, asgi_server, bea)
    bea_page.goto(f"{asgi_server.url}/clubs/")
    bea_page.get_by_role("link", name="Peña de los Ases").click()
    page.goto(f"{asgi_server.url}/clubs/{club.pk}/manage/")
    bea_page.get_by_role("button", name="Pedir unirme").click()
    expect(bea_page.get_by_test_id("requested")).to_be_visible()
    expect(page.get_by_text("bea pide unirse.")).to_be_visible()  # live, by the lobby socket
    problems = {}
    for size, label in ((PHONE, "390x844"), (LAPTOP, "1280x800")):
        page.set_viewport_size(size)
        bea_page.set_viewport_size(size)
        for who, where, path in (
            ("owner", page, f"/clubs/{club.pk}/manage/"),
            ("owner", page, f"/clubs/{club.pk}/"),
            ("owner", page, "/clubs/"),
            ("owner", page, "/clubs/new/"),
            ("owner", page, "/play/"),
            ("owner", page, f"/u/{player.username}/"),
            ("bea", bea_page, f"/clubs/{club.pk}/"),
        ):
            where.goto(asgi_server.url + path)
            where.wait_for_load_state("load")
            found = _check(where, axe_script, size)
            if found:
                problems[f"{who} {path} {label}"] = found
            name = f"clubs-{who}-{path.strip('/').replace('/', '_')}-{label}"
            shoot(where, tmp_path, name)
    assert not problems, problems

    page.goto(f"{asgi_server.url}/clubs/{club.pk}/manage/")
    page.get_by_role("button", name="Aceptar a bea").click()
    expect(page.get_by_text("bea ya es miembro.")).to_be_visible()
    page.get_by_role("button", name="Hacer administrador a bea").click()
    expect(page.get_by_text("bea ya es administrador.")).to_be_visible()
    owner_context.close()
    bea_context.close()


def test_the_owner_hands_the_club_over_by_keyboard_and_the_pages_are_clean(
    asgi_server,
    browser,
    make_user,
    player,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    from clubs.models import Membership, Role

    club = services.club_create(
        user=player, name="Peña de los Ases", description="", language="es", admission="open"
    )
    for name in ("aitana", "bea", "carlos"):
        services.club_join(user=make_user(name), club_id=club.pk)
    services.member_set_role(user=player, club_id=club.pk, username="carlos", role=Role.ADMIN)
    problems = {}
    for size, label in ((PHONE, "390x844"), (LAPTOP, "1280x800")):
        context = _context(browser, size)
        page = context.new_page()
        log_in(page, asgi_server, player)
        page.goto(f"{asgi_server.url}/clubs/{club.pk}/manage/")
        choice = page.get_by_label("Nuevo propietario")
        # The admins first: carlos, then the members by name.
        options = choice.locator("option").all_inner_texts()
        assert options == ["carlos", "aitana", "bea"], options
        found = _check(page, axe_script, size)
        if found:
            problems[f"manage {label}"] = found
        shoot(page, tmp_path, f"clubs-transfer-manage-{label}")
        choice.focus()
        page.keyboard.press("ArrowDown")  # carlos → aitana
        expect(choice).to_have_value("aitana")
        page.keyboard.press("Tab")
        expect(page.get_by_role("button", name="Continuar")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name="¿Hacer propietario a aitana?")).to_be_visible()
        found = _check(page, axe_script, size)
        if found:
            problems[f"confirm {label}"] = found
        shoot(page, tmp_path, f"clubs-transfer-confirm-{label}")
        if label == "390x844":
            page.get_by_role("link", name="Cancelar").click()  # nothing changes
            expect(page.get_by_label("Nuevo propietario")).to_be_visible()
            assert Membership.objects.get(club=club, role=Role.OWNER).user == player
        else:
            page.get_by_role("button", name="Ceder el club a aitana").click()
            expect(
                page.get_by_text("aitana es ahora el propietario de Peña de los Ases")
            ).to_be_visible()
            shoot(page, tmp_path, f"clubs-transfer-done-{label}")
        context.close()
    assert not problems, problems
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {
        "ana": Role.ADMIN,
        "aitana": Role.OWNER,
        "bea": Role.MEMBER,
        "carlos": Role.ADMIN,
    }
