"""Seed the shop's products (PLATFORM.md defaults, edited later in the admin) and the
staff groups (get_or_create: accounts' migration makes them too): `finance` gets the
economy permissions; `moderators` gets none of them."""

from datetime import timedelta

from django.db import migrations

PRODUCTS = [
    # code, name (translated for display through the catalogue), effect, price, duration
    ("booster-1h", "Gold booster, 1 hour", "booster", 150, timedelta(hours=1)),
    ("booster-24h", "Gold booster, 24 hours", "booster", 1500, timedelta(hours=24)),
    ("vip-30d", "VIP pass, 30 days", "vip", 5000, timedelta(days=30)),
]

FINANCE_PERMISSIONS = [
    "view_account",
    "view_transaction",
    "view_entry",
    "view_perk",
    "view_product",
    "add_product",
    "change_product",
    "adjust_balance",
]


def forward(apps, schema_editor):
    Product = apps.get_model("economy", "Product")
    for position, (code, name, effect, price, duration) in enumerate(PRODUCTS):
        Product.objects.get_or_create(
            code=code,
            defaults={
                "name": name,
                "effect": effect,
                "price": price,
                "duration": duration,
                "position": position,
            },
        )

    # Permissions are normally made after all migrations; make economy's now.
    from django.contrib.auth.management import create_permissions

    app_config = apps.get_app_config("economy")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    finance, _ = Group.objects.get_or_create(name="finance")
    finance.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="economy", codename__in=FINANCE_PERMISSIONS
        )
    )
    Group.objects.get_or_create(name="moderators")


def backward(apps, schema_editor):
    # The groups are shared with accounts' migration: take back only economy's permissions.
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    finance = Group.objects.filter(name="finance").first()
    if finance is not None:
        finance.permissions.remove(*Permission.objects.filter(content_type__app_label="economy"))


class Migration(migrations.Migration):
    dependencies = [
        ("economy", "0002_ledger_triggers"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forward, backward)]
