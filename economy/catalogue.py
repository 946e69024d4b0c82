"""The shop's default products (PLATFORM.md); the admin edits the rows afterwards."""

from datetime import timedelta

from django.utils.translation import gettext_noop

# code, name (a msgid: shown translated), effect, price, duration
DEFAULT_PRODUCTS = [
    ("booster-1h", gettext_noop("Gold booster, 1 hour"), "booster", 150, timedelta(hours=1)),
    ("booster-24h", gettext_noop("Gold booster, 24 hours"), "booster", 1500, timedelta(hours=24)),
    ("vip-30d", gettext_noop("VIP pass, 30 days"), "vip", 5000, timedelta(days=30)),
]


def products_seed() -> int:
    """Create the default products that are missing (never changes an existing row)."""
    from economy.models import Product

    created = 0
    for position, (code, name, effect, price, duration) in enumerate(DEFAULT_PRODUCTS):
        _, new = Product.objects.get_or_create(
            code=code,
            defaults={
                "name": name,
                "effect": effect,
                "price": price,
                "duration": duration,
                "position": position,
            },
        )
        created += new
    return created
