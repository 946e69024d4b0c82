"""The moderators see each day's participation and results and may void a result.

Idempotent: groups and permissions are got or created (other apps create the same groups).
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUPS = {
    "moderators": ["view_dailyday", "view_dailyentry", "view_dailyplay", "void_dailyentry"],
}


def forwards(apps, schema_editor):
    # Permissions are normally created after all migrations; make sure ours exist now.
    app_config = apps.get_app_config("daily")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in GROUPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="daily", codename__in=codenames)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("daily", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
