"""Clubs: a group of players with a page, roles, join requests, announcements, its
tables and the matches its members played together (docs/clubs.md).

Written only by `clubs.services` (one transaction each: the club's row locked
first, then any user rows in primary-key order); read through `clubs.selectors`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: Longest club name and description, and an announcement (characters).
NAME_MIN_LENGTH = 3
NAME_MAX_LENGTH = 40
DESCRIPTION_MAX_LENGTH = 500
ANNOUNCEMENT_MAX_LENGTH = 500


class Admission(models.TextChoices):
    OPEN = "open", _("Open: anyone may join")
    REQUEST = "request", _("By request: admins accept each member")


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    ADMIN = "admin", _("Admin")
    MEMBER = "member", _("Member")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    # What the name looks like (accounts.lookalikes.username_key of the name, spaces
    # folded): two open clubs never share one, whatever the race.
    name_key = models.CharField(max_length=200, editable=False)
    description = models.TextField(_("description"), max_length=DESCRIPTION_MAX_LENGTH, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    admission = models.CharField(
        _("admission"), max_length=8, choices=Admission.choices, default=Admission.OPEN
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Closed: by staff, or when its last member left. Its name is free again.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    members_count = models.PositiveIntegerField(_("members"), default=0)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(
                fields=["name_key"], condition=Q(closed_at__isnull=True), name="clubs_name_once"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Membership(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_memberships",
        verbose_name=_("player"),
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="clubs_member_once"),
            models.UniqueConstraint(
                fields=["club"], condition=Q(role="owner"), name="clubs_one_owner"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.user_id} ({self.role})"


class JoinRequest(models.Model):
    """A request to join a club by request; accepting makes a Membership, any answer
    deletes the row."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="join_requests", verbose_name=_("club")
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)

    class Meta:
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="clubs_request_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} → {self.club_id}"


class Announcement(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="announcements", verbose_name=_("club")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("author"),
    )
    text = models.TextField(_("text"), max_length=ANNOUNCEMENT_MAX_LENGTH)
    created_at = models.DateTimeField(_("posted at"), auto_now_add=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        indexes = [models.Index(fields=["club", "-created_at"], name="clubs_announce_club")]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.text[:40]}"


class ClubTable(models.Model):
    """A friends room (games) an admin opened for the club: only members may be
    invited to it or accept an invitation (the games hook `invitation_refusal`)."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="tables", verbose_name=_("club")
    )
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="+", verbose_name=_("table")
    )
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club table")
        verbose_name_plural = _("club tables")

    def __str__(self) -> str:
        return f"{self.club_id}: table {self.table_id}"


class ClubMatch(models.Model):
    """A finished match where at least two of the seated players were members of the
    club when it ended (written in the match's settlement: clubs.receivers)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()

    class Meta:
        verbose_name = _("club match")
        verbose_name_plural = _("club matches")
        constraints = [
            models.UniqueConstraint(fields=["club", "match"], name="clubs_match_once"),
        ]
        indexes = [models.Index(fields=["club", "-finished_at"], name="clubs_match_recent")]

    def __str__(self) -> str:
        return f"{self.club_id}: match {self.match_id}"
