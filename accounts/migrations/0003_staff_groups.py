"""The staff groups. Other apps' migrations may create the same groups and add their own
permissions (get_or_create on both sides): `moderators` handle users, bans, reports and
tables; `finance` the ledger, products and league closing."""

from django.db import migrations

MODERATOR_PERMISSIONS = [
    "view_user",
    "ban_user",
    "view_ban",
    "view_report",
    "change_report",
]
# Finance staff look users up to post adjustments, but may not ban them.
FINANCE_PERMISSIONS = ["view_user"]


def forward(apps, schema_editor):
    # Permissions are normally made after all migrations; make the accounts ones now.
    from django.contrib.auth.management import create_permissions

    app_config = apps.get_app_config("accounts")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in (
        ("moderators", MODERATOR_PERMISSIONS),
        ("finance", FINANCE_PERMISSIONS),
    ):
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="accounts", codename__in=codenames)
        )


def backward(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name in ("moderators", "finance"):
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.remove(
                *Permission.objects.filter(content_type__app_label="accounts")
            )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_bans_and_reports"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forward, backward)]
