"""Read-only views of the queue, stake tables and league points (changes go through services)."""

from django.contrib import admin

from accounts.admin import ReadOnlyAdmin
from online.models import (
    MatchConduct,
    MatchLeaguePoints,
    QueueEntry,
    QuitStanding,
    StakeSitting,
    StakeTable,
)


@admin.register(QueueEntry)
class QueueEntryAdmin(ReadOnlyAdmin):
    list_display = ("user", "joined_at")
    search_fields = ("user__username",)


@admin.register(StakeTable)
class StakeTableAdmin(ReadOnlyAdmin):
    list_display = ("table", "stake", "min_reputation", "expires_at")
    list_filter = ("stake", "table__status")


@admin.register(StakeSitting)
class StakeSittingAdmin(ReadOnlyAdmin):
    list_display = ("table", "user", "position", "sat_at", "left_at")
    search_fields = ("user__username",)


@admin.register(MatchLeaguePoints)
class MatchLeaguePointsAdmin(ReadOnlyAdmin):
    list_display = ("match", "position", "user", "place", "points", "halved")
    search_fields = ("user__username",)


@admin.register(MatchConduct)
class MatchConductAdmin(ReadOnlyAdmin):
    """How each person ended each rated match: the ladder of waits' record
    (docs/fairplay.md)."""

    list_display = ("user", "match", "conduct", "at", "forgiven", "step", "wait_until")
    list_filter = ("conduct", "forgiven")
    search_fields = ("user__username",)


@admin.register(QuitStanding)
class QuitStandingAdmin(ReadOnlyAdmin):
    list_display = ("user", "step", "clean_matches", "last_counted_at", "wait_until")
    search_fields = ("user__username",)
