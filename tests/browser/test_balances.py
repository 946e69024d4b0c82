"""In Chromium: after each action the wallet, the shop and a stake room show the new
balance and state in place (no reload), and a refusal looks like an error."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.test_online_flow import signed_in_page

# Set before an action; still there afterwards only if the page was not reloaded.
MARK = "window.samePage = true"
SAME_PAGE = "window.samePage === true"
GREEN = "rgb(227, 244, 230)"  # .message-success


@pytest.fixture(autouse=True)
def _quiet_bots(settings):
    settings.BOT_RUNNER = "off"


def test_the_daily_bonus_changes_the_wallet_and_the_nav_and_a_second_claim_is_refused(
    asgi_server, new_page, make_user, settings
):
    user = make_user("ana")
    page, stale = (signed_in_page(new_page, asgi_server, user) for _ in range(2))
    for each in (page, stale):
        each.goto(asgi_server.url + "/wallet/")
    expect(page.locator(".wallet-coins")).to_have_text("1000")
    expect(page.locator("#nav-wallet")).to_contain_text("1000 monedas")
    page.evaluate(MARK)

    page.locator("#daily").get_by_role("button", name="Cobrar el bono de hoy").click()
    after = str(1000 + settings.ECONOMY_DAILY_BONUS)
    expect(page.locator(".wallet-coins")).to_have_text(after)
    expect(page.locator("#nav-wallet")).to_contain_text(f"{after} monedas")
    expect(page.locator("#daily .message-success")).to_contain_text(
        f"{settings.ECONOMY_DAILY_BONUS} monedas"
    )
    expect(page.locator("#transactions tbody tr")).not_to_have_count(0)
    assert page.evaluate(SAME_PAGE)

    # A page opened before the claim still offers it: claiming again is refused, as an error.
    stale.evaluate(MARK)
    stale.locator("#daily").get_by_role("button", name="Cobrar el bono de hoy").click()
    refusal = stale.locator("#daily").get_by_role("alert")
    expect(refusal).to_have_text("Ya cobraste el bono de hoy. Vuelve mañana.")
    expect(refusal).to_have_class(re.compile(r"\bmessage-error\b"))
    assert refusal.evaluate("(el) => getComputedStyle(el).backgroundColor") != GREEN
    expect(stale.locator("#daily .message-success")).to_have_count(0)
    # The stale page now shows the balance after the one claim that counted.
    expect(stale.locator(".wallet-coins")).to_have_text(after)
    expect(stale.locator("#nav-wallet")).to_contain_text(f"{after} monedas")
    assert stale.evaluate(SAME_PAGE)


def test_buying_a_booster_changes_the_shop_balance_and_what_you_own(
    asgi_server, new_page, make_user
):
    from economy.catalogue import products_seed
    from economy.models import Product

    products_seed()  # the flush of transactional tests removed the seeded rows
    booster = Product.objects.filter(active=True, effect="booster").order_by("price").first()
    user = make_user("bruno")
    page = signed_in_page(new_page, asgi_server, user)
    page.goto(asgi_server.url + "/shop/")
    expect(page.locator("#shop-balance")).to_contain_text("1000 monedas")
    expect(page.locator("#perks")).to_contain_text("No tienes ningún potenciador ni pase VIP")
    page.evaluate(MARK)

    item = page.locator(f"#product-{booster.code}")
    item.get_by_role("link", name="Comprar").click()
    item.get_by_role("button", name="Confirmar compra").click()
    expect(item.locator(".purchase-result .message-success")).to_be_visible()
    left = str(1000 - booster.price)
    expect(page.locator("#shop-balance")).to_contain_text(f"{left} monedas")
    expect(page.locator("#nav-wallet")).to_contain_text(f"{left} monedas")
    expect(page.locator("#perks .perk-booster")).to_have_count(1)
    expect(page.locator("#perks")).not_to_contain_text("No tienes ningún potenciador")
    assert page.evaluate(SAME_PAGE)


def test_a_cancelled_stake_room_says_the_stake_came_back(asgi_server, new_page, make_user):
    from games.models import Table
    from online import services
    from online.models import StakeTable

    user = make_user("carla")
    page = signed_in_page(new_page, asgi_server, user)
    page.goto(asgi_server.url + "/play/stakes/")
    page.get_by_role("button", name="Abrir una mesa de 100 monedas").click()
    table = Table.objects.get(mode="stake")
    expect(page).to_have_url(re.compile(rf"/play/stakes/{table.pk}/$"))
    expect(page.get_by_test_id("stake-balance")).to_contain_text("900 monedas")
    page.evaluate(MARK)

    # Nobody else came: the table is cancelled at its fill time (the sweep's work).
    expires = StakeTable.objects.get(table=table).expires_at
    assert services.stake_table_cancel(table_id=table.pk, now=expires + timedelta(seconds=1))
    expect(page.get_by_test_id("stake-status")).to_have_text("Cancelada")
    expect(page.locator("#stake-seats")).to_contain_text(
        "Tu apuesta de 100 monedas ha vuelto a tu saldo."
    )
    expect(page.get_by_test_id("stake-balance")).to_contain_text("1000 monedas")
    expect(page.locator("#nav-wallet")).to_contain_text("1000 monedas")
    assert page.evaluate(SAME_PAGE)
