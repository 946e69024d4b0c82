"""Wallet, daily bonus and shop pages, including every bad input."""

import re
import uuid

import pytest
from django.urls import reverse

from economy import services
from economy.models import Perk, Product, Transaction, TransactionKind

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ana(client, player):
    client.force_login(player)
    return player


def confirm_key(client, code: str) -> str:
    response = client.get(reverse("purchase_confirm", args=[code]), **HTMX)
    assert response.status_code == 200
    return re.search(r'name="key" value="([0-9a-f-]+)"', response.text).group(1)


def purchases() -> int:
    return Transaction.objects.filter(kind=TransactionKind.PURCHASE).count()


# --- Login ---


@pytest.mark.parametrize("name", ["wallet", "shop"])
def test_the_pages_need_a_login(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_visitor_cannot_claim_or_buy(client, player, coins_of):
    assert client.post(reverse("daily_bonus")).status_code == 302
    response = client.post(reverse("purchase", args=["booster-1h"]), {"key": str(uuid.uuid4())})
    assert response.status_code == 302
    assert coins_of(player) == 1000


# --- Navigation and profile ---


def test_the_navigation_shows_coins_and_level(client, ana):
    response = client.get("/")
    assert 'id="nav-wallet"' in response.text
    assert "1000" in response.text
    assert reverse("shop") in response.text


def test_the_profile_shows_the_level_with_progress(client, ana, stranger):
    services.ledger_grant(user=stranger, amount=350, idempotency_key="xp", currency="xp")
    response = client.get(reverse("profile", args=[stranger.username]))
    assert '<progress class="level-progress" max="300" value="50"' in response.text
    assert "Nivel 3" in response.text or "Level 3" in response.text


# --- Wallet ---


def test_the_wallet_shows_balance_perks_level_and_transactions(client, ana):
    services.product_purchase(
        user=ana, product=Product.objects.get(code="booster-1h"), idempotency_key="x"
    )
    response = client.get(reverse("wallet"), HTTP_ACCEPT_LANGUAGE="en")
    text = response.text
    assert response.status_code == 200
    assert '<dd class="wallet-coins">850</dd>' in text
    assert 'class="perk perk-booster"' in text
    assert text.index("-150") < text.index("+1000"), "newest first"


def test_the_transaction_list_is_paged_newest_first(client, ana, settings):
    settings.ECONOMY_TRANSACTIONS_PER_PAGE = 5
    for i in range(12):
        services.ledger_grant(user=ana, amount=100 + i, idempotency_key=f"g{i}")
    first = client.get(reverse("wallet")).text
    assert "+111" in first and "+106" not in first
    last = client.get(reverse("wallet") + "?page=3").text
    assert "+1000" in last and "+111" not in last


@pytest.mark.parametrize(
    ("page", "status"), [("abc", 400), ("0", 404), ("-1", 404), ("2", 404), ("1.5", 400), ("", 400)]
)
def test_a_page_number_the_wallet_does_not_have_is_an_error_page(client, ana, page, status):
    assert "+1000" in client.get(reverse("wallet"), {"page": "1"}).text
    response = client.get(reverse("wallet"), {"page": page})
    assert response.status_code == status
    assert 'class="error-page"' in response.text


def test_an_htmx_page_request_gets_only_the_list(client, ana):
    response = client.get(reverse("wallet"), {"page": "1"}, HTTP_HX_TARGET="transactions", **HTMX)
    assert "<table" in response.text and "<html" not in response.text


# --- Daily bonus ---


def test_the_daily_bonus_button_pays_once(client, ana, coins_of):
    first = client.post(reverse("daily_bonus"), **HTMX)
    second = client.post(reverse("daily_bonus"), **HTMX)
    assert first.status_code == second.status_code == 200
    assert "50" in first.text and 'hx-swap-oob="true"' in first.text
    assert second.text != first.text
    assert coins_of(ana) == 1050


def test_the_daily_bonus_works_without_javascript(client, ana, coins_of):
    response = client.post(reverse("daily_bonus"))
    assert response.status_code == 302 and response["Location"] == reverse("wallet")
    assert coins_of(ana) == 1050


def test_the_daily_bonus_refuses_get(client, ana, coins_of):
    assert client.get(reverse("daily_bonus")).status_code == 405
    assert coins_of(ana) == 1000


# --- Shop ---


def test_the_shop_lists_the_products_on_sale(client, ana):
    Product.objects.filter(code="booster-24h").update(active=False)
    response = client.get(reverse("shop"))
    assert 'id="product-booster-1h"' in response.text
    assert 'id="product-booster-24h"' not in response.text


def test_buying_asks_for_confirmation_then_buys(client, ana, coins_of):
    key = confirm_key(client, "booster-1h")
    assert coins_of(ana) == 1000, "showing the confirmation buys nothing"
    response = client.post(reverse("purchase", args=["booster-1h"]), {"key": key}, **HTMX)
    assert response.status_code == 200
    assert "message-success" in response.text and 'hx-swap-oob="true"' in response.text
    assert coins_of(ana) == 850
    assert Perk.objects.filter(user=ana, effect="booster").exists()


def test_a_double_click_buys_once(client, ana, coins_of):
    key = confirm_key(client, "booster-1h")
    for _ in range(2):
        client.post(reverse("purchase", args=["booster-1h"]), {"key": key}, **HTMX)
    assert coins_of(ana) == 850 and purchases() == 1


def test_each_confirmation_gets_a_fresh_key(client, ana):
    assert confirm_key(client, "booster-1h") != confirm_key(client, "booster-1h")


def test_buying_without_javascript_confirms_on_the_page_and_redirects(client, ana, coins_of):
    page = client.get(reverse("purchase_confirm", args=["booster-1h"]))
    assert page.status_code == 200 and "<html" in page.text
    key = re.search(r'name="key" value="([0-9a-f-]+)"', page.text).group(1)
    response = client.post(reverse("purchase", args=["booster-1h"]), {"key": key})
    assert response.status_code == 302 and response["Location"] == reverse("shop")
    assert coins_of(ana) == 850


def test_a_short_balance_is_refused_with_a_clear_message(client, ana, coins_of):
    key = confirm_key(client, "vip-30d")
    response = client.post(
        reverse("purchase", args=["vip-30d"]), {"key": key}, HTTP_ACCEPT_LANGUAGE="en", **HTMX
    )
    assert "message-error" in response.text
    assert "does not cover" in response.text or "no alcanza" in response.text
    assert coins_of(ana) == 1000 and purchases() == 0 and not Perk.objects.exists()


def test_an_unknown_product_is_not_found(client, ana):
    assert client.get(reverse("purchase_confirm", args=["gold-bar"])).status_code == 404
    response = client.post(reverse("purchase", args=["gold-bar"]), {"key": str(uuid.uuid4())})
    assert response.status_code == 404


def test_a_switched_off_product_is_refused(client, ana, coins_of):
    key = confirm_key(client, "booster-1h")
    Product.objects.filter(code="booster-1h").update(active=False)
    response = client.post(reverse("purchase", args=["booster-1h"]), {"key": key}, **HTMX)
    assert "message-error" in response.text
    assert coins_of(ana) == 1000 and purchases() == 0
    confirm = client.get(reverse("purchase_confirm", args=["booster-1h"]), **HTMX)
    assert "message-error" in confirm.text and 'name="key"' not in confirm.text


@pytest.mark.parametrize("data", [{}, {"key": ""}, {"key": "not-a-uuid"}, {"key": "1" * 500}])
def test_a_purchase_without_a_valid_key_is_refused(client, ana, coins_of, data):
    response = client.post(reverse("purchase", args=["booster-1h"]), data, **HTMX)
    assert response.status_code == 200 and "message-error" in response.text
    assert coins_of(ana) == 1000 and purchases() == 0


def test_a_purchase_refuses_get(client, ana):
    assert client.get(reverse("purchase", args=["booster-1h"])).status_code == 405


def test_the_shop_page_is_translated_to_spanish(client, ana):
    response = client.get(reverse("shop"), HTTP_ACCEPT_LANGUAGE="es")
    assert "Tienda" in response.text and "Potenciador dorado, 1 hora" in response.text


def test_a_match_reward_shows_its_coins_and_xp_once_in_the_wallet(client, ana, stranger):
    from economy.selectors import user_transactions
    from economy.services import Placement

    services.match_reward(
        match_id=42, label="online", placements=[Placement(ana, 1), Placement(stranger, 2)]
    )
    reward = user_transactions(ana).get(match_id=42)
    assert (reward.coins, reward.xp) == (60, 40)
    assert "partida n.º 42" in client.get(reverse("wallet"), HTTP_ACCEPT_LANGUAGE="es").text
