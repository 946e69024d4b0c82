from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts import hooks
from accounts.errors import BanError, ReportError
from accounts.links import device_key, network_key
from accounts.models import Ban, Report, SignIn, User
from accounts.signals import report_closed, user_banned, user_unbanned
from ops.prune import delete_in_batches

BAN_PERMISSION = "accounts.ban_user"
REPORT_CLOSE_PERMISSION = "accounts.change_report"
_DUPLICATE_REPORT = gettext_lazy(
    "You have already reported this player; a moderator will look at it."
)
_DUPLICATE_MATCH_REPORT = gettext_lazy(
    "You have already reported this player about this match; a moderator will look at it."
)


# First key of the two-key advisory locks that serialise sign-ups of look-alike names
# (the one-key space, e.g. the matchmaker's lock, never overlaps the two-key one).
USERNAME_LOCK_SPACE = 0x5553  # "US"


def username_key_lock(*, key: str) -> None:
    """Holds, until the current transaction ends, the lock of one look-alike key.

    Sign-up checks that no player has the new name's key, then creates the user: two
    sign-ups of look-alike names at once would both pass the check (the key is not
    unique: older look-alikes exist). The sign-up view runs in one transaction and
    takes this lock before the check, so the second one waits for the first to commit
    and then sees its user. PostgreSQL only; SQLite runs one write at a time anyway.
    """
    if transaction.get_connection().vendor != "postgresql":
        return
    with transaction.get_connection().cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [USERNAME_LOCK_SPACE, key])


def user_group_name(user_id: int) -> str:
    """The channel-layer group every socket of one user joins (docs/protocol.md)."""
    return f"user-{user_id}"


def session_group_name(session_key: str) -> str:
    """The channel-layer group of the sockets one session opened (a hash: session
    keys are secrets and group names end up in Redis)."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def _send_to_group(group: str, message: dict) -> None:
    # The games app registers how to reach the in-process layer's event loop.
    hooks.group_send(group, message)


def session_sockets_close(*, session_key: str) -> None:
    """Logging out: every socket that session opened closes at once."""
    _send_to_group(session_group_name(session_key), {"type": "session.ended"})


def user_sockets_close(*, user_id: int) -> None:
    """A password change: every socket of the user closes at once (the browser that
    changed it reconnects with its refreshed session; the others cannot)."""
    _send_to_group(user_group_name(user_id), {"type": "session.ended"})


def user_set_language(*, user: User, language: str) -> None:
    """Remember the language a logged-in user chose."""
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])


def _log_staff_action(*, staff_user: User, obj: Any, message: str) -> None:
    LogEntry.objects.log_actions(
        user_id=staff_user.pk, queryset=[obj], action_flag=CHANGE, change_message=message
    )


def _notify_banned(user_id: int, until: datetime | None) -> None:
    message = {"type": "user.banned", "until": until.isoformat() if until else None}
    _send_to_group(user_group_name(user_id), message)


def may_act_on(staff_user: User, user: User) -> bool:
    """Staff accounts are acted on (banned, unbanned) by superusers only: a moderator
    cannot ban another moderator or a finance user."""
    return staff_user.is_superuser or not (user.is_staff or user.is_superuser)


def _check_may_act_on(staff_user: User, user: User) -> None:
    if not may_act_on(staff_user, user):
        raise BanError(_("Only a superuser can ban or unban a staff account."))


def user_ban(*, user: User, staff_user: User, reason: str, until: datetime | None = None) -> Ban:
    """Ban `user` until `until` (for good when None), replacing any ban in force.

    After commit: every socket of the user is told (`user.banned` to group
    `user-<id>`) and `accounts.signals.user_banned` fires for the games app.
    """
    reason = (reason or "").strip()
    now = timezone.now()
    if not reason:
        raise BanError(_("A ban needs a reason."))
    if until is not None and until <= now:
        raise BanError(_("The end of a ban must be in the future."))
    if user.pk == staff_user.pk:
        raise BanError(_("You cannot ban yourself."))
    if not staff_user.has_perm(BAN_PERMISSION):
        raise BanError(_("You are not allowed to ban users."))
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.is_superuser:
            raise BanError(_("A superuser cannot be banned."))
        _check_may_act_on(staff_user, user)
        Ban.objects.active(now).filter(user=user).update(
            lifted_at=now, lifted_by=staff_user, lift_reason=_("Replaced by a new ban.")
        )
        ban = Ban.objects.create(
            user=user, reason=reason, until=until, created_at=now, created_by=staff_user
        )
        if until is None:
            message = _("Banned without an end date. Reason: %(reason)s") % {"reason": reason}
        else:
            message = _("Banned until %(until)s. Reason: %(reason)s") % {
                "until": timezone.localtime(until).strftime("%Y-%m-%d %H:%M %Z"),
                "reason": reason,
            }
        _log_staff_action(staff_user=staff_user, obj=user, message=message)
        user_id = user.pk
        transaction.on_commit(lambda: _notify_banned(user_id, until))
        transaction.on_commit(lambda: user_banned.send(sender=User, user=user, ban=ban))
    return ban


def user_unban(*, user: User, staff_user: User, reason: str) -> int:
    """Lift every ban in force on `user`; returns how many were lifted (0: was not banned)."""
    reason = (reason or "").strip()
    if not reason:
        raise BanError(_("Lifting a ban needs a reason."))
    if not staff_user.has_perm(BAN_PERMISSION):
        raise BanError(_("You are not allowed to ban users."))
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        _check_may_act_on(staff_user, user)
        lifted = (
            Ban.objects.active(now)
            .filter(user=user)
            .update(lifted_at=now, lifted_by=staff_user, lift_reason=reason)
        )
        if not lifted:
            raise BanError(_("%(user)s is not banned.") % {"user": user})
        _log_staff_action(
            staff_user=staff_user,
            obj=user,
            message=_("Ban lifted. Reason: %(reason)s") % {"reason": reason},
        )
        transaction.on_commit(lambda: user_unbanned.send(sender=User, user=user))
    return lifted


def report_create(
    *,
    reporter: User,
    reported: User,
    reason: str,
    text: str = "",
    match_id: int | None = None,
) -> Report:
    """A player reports another player, optionally about one match."""
    if reporter.pk == reported.pk:
        raise ReportError(_("You cannot report yourself."))
    if reason not in Report.Reason.values:
        raise ReportError(_("Choose a reason for the report."))
    text = (text or "").strip()
    if len(text) > 2000:
        raise ReportError(_("The details may be at most 2000 characters long."))
    if match_id is not None:
        players = hooks.match_players(match_id)
        if not {reporter.pk, reported.pk} <= players:
            raise ReportError(_("You can only report a player about a match you both played."))
    now = timezone.now()
    duplicate = _DUPLICATE_REPORT if match_id is None else _DUPLICATE_MATCH_REPORT
    try:
        with transaction.atomic():
            # One reporter's reports are written one at a time: the hourly count holds.
            User.objects.select_for_update().filter(pk=reporter.pk).exists()
            open_reports = Report.objects.filter(
                reporter=reporter,
                reported=reported,
                # match_id may be None, which Django reads as IS NULL; django-stubs'
                # lookup types do not allow None for a nullable field's exact lookup.
                match_id=match_id,  # type: ignore[misc]
                closed_at__isnull=True,
            )
            if open_reports.exists():
                raise ReportError(duplicate)
            recent = Report.objects.filter(
                reporter=reporter, created_at__gt=now - timedelta(hours=1)
            ).count()
            if recent >= settings.REPORTS_PER_HOUR:
                raise ReportError(
                    ngettext(
                        "You can send at most %(count)d report an hour. Try again later.",
                        "You can send at most %(count)d reports an hour. Try again later.",
                        settings.REPORTS_PER_HOUR,
                    )
                    % {"count": settings.REPORTS_PER_HOUR}
                )
            return Report.objects.create(
                reporter=reporter,
                reported=reported,
                reason=reason,
                text=text,
                match_id=match_id,
                created_at=now,
            )
    except IntegrityError:  # the partial unique index: a duplicate raced this one
        raise ReportError(duplicate) from None


def report_close(*, report: Report, staff_user: User, note: str) -> Report:
    """A moderator closes an open report with a note (recorded in the admin log)."""
    note = (note or "").strip()
    if not note:
        raise ReportError(_("Closing a report needs a note."))
    if not staff_user.has_perm(REPORT_CLOSE_PERMISSION):
        raise ReportError(_("You are not allowed to close reports."))
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.closed_at is not None:
            raise ReportError(_("This report is already closed."))
        report.closed_at = timezone.now()
        report.closed_by = staff_user
        report.close_note = note
        report.save(update_fields=["closed_at", "closed_by", "close_note"])
        _log_staff_action(
            staff_user=staff_user,
            obj=report,
            message=_("Report closed. Note: %(note)s") % {"note": note},
        )
        report_closed.send(sender=Report, report=report)
    return report


# --- sign-ins (docs/moderation.md, "Linked accounts") ---------------------------------


def sign_in_record(
    *, user_id: int, address: str | None, device_id: str, at: datetime | None = None
) -> SignIn:
    """Records a successful sign-in of `user_id` from the client `address` (None or
    not an address: no network) on the device whose cookie holds `device_id`; only
    their HMACs are stored (accounts.links)."""
    return SignIn.objects.create(
        user_id=user_id,
        at=at or timezone.now(),
        network=network_key(address),
        device=device_key(device_id),
    )


def sign_ins_prune(*, now: datetime | None = None, batch: int = 5000) -> int:
    """Deletes the sign-in records older than SIGN_IN_KEEP_DAYS, in batches of `batch`,
    each its own transaction, so the table is never held long. Returns how many rows
    were deleted."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.SIGN_IN_KEEP_DAYS)
    return delete_in_batches(SignIn.objects.filter(at__lt=cutoff), order_by="at", batch=batch)
