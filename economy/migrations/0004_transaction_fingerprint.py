"""Store a fingerprint of the posting call's parameters with each idempotency key.

Nullable, so SQLite adds the column with ALTER TABLE instead of rebuilding the
table (a rebuild would drop the ledger triggers of 0002). Older rows keep NULL.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("economy", "0003_products_and_groups"),
    ]

    operations = [
        migrations.AddField(
            model_name="transaction",
            name="fingerprint",
            field=models.CharField(
                blank=True,
                editable=False,
                max_length=64,
                null=True,
                verbose_name="parameters fingerprint",
            ),
        ),
    ]
