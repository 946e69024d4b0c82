"""What a sign-in record keeps of the network and the device, and nothing more
(docs/moderation.md, "Linked accounts").

- The network: an IPv4 address as it is, an IPv6 address cut to its /64 (the network
  one home or phone line is given; the last 64 bits change by themselves with privacy
  addresses), an IPv4-mapped IPv6 address as its IPv4 address. Stored as
  HMAC-SHA256(LINKED_ACCOUNTS_SECRET, "network:" + the network's bytes), in hex: the
  same network gives the same text, and the text gives back no address without the
  secret.
- The device: a random id in a first-party cookie (32 URL-safe characters), stored as
  HMAC-SHA256(LINKED_ACCOUNTS_SECRET, "device:" + the id), in hex, so the stored value
  cannot be put in a cookie to pass for that browser.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets

from django.conf import settings

#: Where a sign-in leaves the device id on its request, for DeviceCookieMiddleware to set
#: the cookie on the answer (accounts.receivers.record_sign_in).
DEVICE_ID_ATTRIBUTE = "device_id_signed_in"
#: The device cookie's value: what `device_id_new` makes (24 random bytes, URL-safe).
_DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{32}")
#: An address longer than any written form of an IPv6 address (with a zone) is no address.
_LONGEST_ADDRESS = 64


def _hmac(kind: bytes, value: bytes) -> str:
    key = settings.LINKED_ACCOUNTS_SECRET.encode()
    return hmac.new(key, kind + b":" + value, hashlib.sha256).hexdigest()


def network_of(address: str | None) -> bytes | None:
    """The network an address counts as (see the module), as bytes; None for anything
    that is not an IP address."""
    if not address or len(address) > _LONGEST_ADDRESS:
        return None
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return ip.ipv4_mapped.packed
        return ipaddress.IPv6Network((ip, 64), strict=False).network_address.packed
    return ip.packed


def network_key(address: str | None) -> str:
    """The stored form of the network of `address`: "" when it names none."""
    network = network_of(address)
    return "" if network is None else _hmac(b"network", network)


def device_id_valid(value: str) -> bool:
    """Whether a device cookie holds an id `device_id_new` could have made."""
    return _DEVICE_ID.fullmatch(value) is not None


def device_id_new() -> str:
    return secrets.token_urlsafe(24)


def device_key(device_id: str) -> str:
    """The stored form of a device cookie's id."""
    return _hmac(b"device", device_id.encode())
