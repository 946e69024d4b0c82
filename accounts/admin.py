from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "email", "date_joined", "last_login", "is_active", "is_staff")
    search_fields = ("username", "email")
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Preferences"), {"fields": ("language",)}),
    )
