"""Sentry: off without SENTRY_DSN; with it, events carry a user id and nothing else."""

from __future__ import annotations

import sentry_sdk
from sentry_sdk.transport import Transport

from ops import errors


def test_without_a_dsn_nothing_is_initialised_and_nothing_sent(settings):
    assert settings.SENTRY_DSN == ""
    assert settings.SENTRY_ENABLED is False
    assert not sentry_sdk.get_client().is_active()
    assert errors.init(dsn="", environment="test", release=None, traces_rate=0) is False
    assert not sentry_sdk.get_client().is_active()
    # Capturing does nothing and reaches no transport.
    assert sentry_sdk.capture_message("nothing") is None


class Captured(Transport):
    def __init__(self, options=None):
        super().__init__(options)
        self.envelopes = []

    def capture_envelope(self, envelope):
        self.envelopes.append(envelope)


def test_an_event_keeps_the_user_id_only():
    event = {
        "user": {
            "id": "42",
            "email": "ana@example.com",
            "username": "ana",
            "ip_address": "1.2.3.4",
        },
        "request": {
            "cookies": {"sessionid": "s"},
            "data": {"password": "p"},
            "headers": {"Cookie": "sessionid=s", "User-Agent": "UA", "X-Forwarded-For": "1.2.3.4"},
        },
    }
    scrubbed = errors.scrub(event, None)
    assert scrubbed["user"] == {"id": "42"}
    assert "cookies" not in scrubbed["request"] and "data" not in scrubbed["request"]
    assert scrubbed["request"]["headers"] == {"User-Agent": "UA"}


def test_with_a_dsn_events_go_out_scrubbed():
    transport = Captured()
    try:
        sentry_sdk.init(
            dsn="https://public@sentry.example.invalid/1",
            transport=transport,
            before_send=errors.scrub,
        )
        sentry_sdk.set_user({"id": "7", "email": "ana@example.com"})
        sentry_sdk.capture_message("boom")
        sentry_sdk.flush()
    finally:
        sentry_sdk.init(dsn=None)
    [envelope] = transport.envelopes
    event = envelope.get_event()
    assert event["user"] == {"id": "7"}
