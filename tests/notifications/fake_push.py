"""A push service on loopback: records each POST (headers and body) and answers
with the status the test sets (201, or 404/410 for a subscription gone); and the
checks a push service makes of what it received (the VAPID token's signature)."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def verified_vapid_claims(headers: dict[str, str]) -> tuple[dict[str, Any], str]:
    """The VAPID token's claims and public key, once its ES256 signature verifies with
    that key (raises InvalidSignature if not). Either form of the header: RFC 8292's
    `vapid t=…, k=…`, or `WebPush <token>` with the key in Crypto-Key (pywebpush's)."""
    scheme, _, fields = headers["authorization"].partition(" ")
    if scheme == "vapid":
        parts = dict(p.strip().split("=", 1) for p in fields.split(","))
        token, key = parts["t"], parts["k"]
    else:
        assert scheme == "WebPush", headers["authorization"]
        crypto = dict(p.strip().split("=", 1) for p in headers["crypto-key"].split(";"))
        token, key = fields, crypto["p256ecdsa"]
    header, claims, signature = token.split(".")
    assert json.loads(unb64url(header))["alg"] == "ES256"
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64url(claims)), key


class FakePushService:
    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                service.received.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakePushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
