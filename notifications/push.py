"""Web Push (VAPID, pywebpush): the keys, the policy (quiet hours, hourly cap) and
one push to one browser.

Keys: VAPID_PRIVATE_KEY (PEM, or its base64url DER/raw form) and VAPID_PUBLIC_KEY
from the environment; unset, a key pair is made once and kept in VAPID_KEY_FILE
(PEM, mode 600, like the Makefile's .secret_key), so every process and restart
signs with the same key and browsers' subscriptions stay valid.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from datetime import datetime, time
from functools import cache as memoize
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.cache import cache
from py_vapid import Vapid01

logger = logging.getLogger(__name__)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _load_or_create(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    vapid = Vapid01()
    vapid.generate_keys()
    pem = vapid.private_pem()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_bytes()
    with os.fdopen(fd, "wb") as handle:
        handle.write(pem)
    logger.info("web push: a new VAPID key pair was written to %s", path)
    return pem


@memoize
def vapid() -> Vapid01:
    """The site's VAPID key (environment, or the key file made once)."""
    private = settings.VAPID_PRIVATE_KEY
    if private:
        if "BEGIN" in private:
            return Vapid01.from_pem(private.encode())
        return Vapid01.from_string(private)
    return Vapid01.from_pem(_load_or_create(Path(settings.VAPID_KEY_FILE)))


def public_key() -> str:
    """The applicationServerKey browsers subscribe with (base64url, uncompressed point)."""
    if settings.VAPID_PUBLIC_KEY:
        return str(settings.VAPID_PUBLIC_KEY)
    raw = vapid().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(raw)


def in_quiet_hours(row: Any, now: datetime) -> bool:
    start, end = row.quiet_start, row.quiet_end
    if start is None or end is None or start == end:
        return False
    try:
        zone = ZoneInfo(row.timezone or "Europe/Madrid")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("Europe/Madrid")
    local: time = now.astimezone(zone).time()
    if start < end:
        return start <= local < end
    return local >= start or local < end


def take_hourly_slot(user_id: int, limit: int, now: datetime) -> bool:
    """One push of the user's hourly allowance (False: over it this hour)."""
    if limit <= 0:
        return False
    key = f"notifications:push:{user_id}:{now:%Y%m%d%H}"
    cache.add(key, 0, timeout=3700)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=3700)
        used = 1
    return used <= limit


def payload(*, title: str, body: str, url: str, tag: str) -> bytes:
    return json.dumps({"title": title, "body": body, "url": url, "tag": tag}).encode()


def deliver(subscription: Any, data: bytes) -> int:
    """Sends one encrypted push (aes128gcm); returns the push service's status."""
    from pywebpush import WebPushException, webpush

    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        response = webpush(
            subscription_info=info,
            data=data,
            vapid_private_key=vapid(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            content_encoding="aes128gcm",
            ttl=settings.NOTIFICATIONS_PUSH_TTL,
            timeout=10,
        )
    except WebPushException as failure:
        if failure.response is not None:
            return int(failure.response.status_code)
        raise
    return int(getattr(response, "status_code", 201))
