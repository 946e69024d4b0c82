"""Staff groups for the league and a Bronze membership for every existing user.

Idempotent: groups and permissions are got or created (another app may create
the same groups), memberships only for users who have none.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

VIEW = ["view_leagueweek", "view_leaguestanding", "view_leaguemembership", "view_leaguepoints"]
GROUPS = {"moderators": VIEW, "finance": [*VIEW, "close_leagueweek"]}


def forwards(apps, schema_editor):
    # Permissions are normally created after all migrations; make sure ours exist now.
    app_config = apps.get_app_config("leagues")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in GROUPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="leagues", codename__in=codenames)
        )
    User = apps.get_model("accounts", "User")
    Membership = apps.get_model("leagues", "LeagueMembership")
    missing = User.objects.filter(league_membership__isnull=True).values_list("pk", flat=True)
    Membership.objects.bulk_create(
        [Membership(user_id=pk) for pk in missing.iterator()], batch_size=1000
    )


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
