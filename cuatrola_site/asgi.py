"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from cuatrola_site import shutdown as site_shutdown  # noqa: E402
from cuatrola_site.routing import websocket_urlpatterns  # noqa: E402
from games.sockets.guard import ConnectLimit  # noqa: E402
from ops import shutdown  # noqa: E402


def _start_embedded_beat() -> None:
    """`make run` has no beat process: run the periodic tasks in this one."""
    from django.conf import settings

    if settings.REDIS_URL or not settings.RUN_EMBEDDED_BEAT:
        return
    from cuatrola_site.celery import app as celery_app
    from cuatrola_site.ticker import EmbeddedBeat

    EmbeddedBeat(celery_app).start()


_start_embedded_beat()


def _load_channel_layer() -> None:
    """Import the channel layer's modules now, not on the first socket (under load
    that import stalled the event loop for most of a second)."""
    from channels.layers import get_channel_layer

    get_channel_layer()


_load_channel_layer()

# Everything loaded so far lives as long as the process: keep it out of the
# garbage collector's full passes, which otherwise stall a busy server's loop.
gc.freeze()

# A database thread back from PostgreSQL waits for the GIL up to the switch
# interval (5 ms by default), several times per move; under load those waits,
# not the work, made a move's transaction last tens of milliseconds.
sys.setswitchinterval(float(os.environ.get("GIL_SWITCH_INTERVAL", "0.0005")))


async def http_application(
    scope: dict[str, Any],
    receive: Callable[[], Awaitable[dict[str, Any]]],
    send: Callable[[Mapping[str, Any]], Awaitable[None]],
) -> None:
    """Django, except the liveness probe, which must answer whatever the Host header
    (503 while the process drains for a restart: the front door takes it out)."""
    if scope["path"] == "/healthz":
        restarting = shutdown.draining()
        await send(
            {
                "type": "http.response.start",
                "status": 503 if restarting else 200,
                "headers": [(b"content-type", b"text/plain")],
            }
        )
        await send({"type": "http.response.body", "body": b"restarting" if restarting else b"ok"})
        return
    await django_asgi_app(scope, receive, send)


async def lifespan_application(
    scope: dict[str, Any],
    receive: Callable[[], Awaitable[dict[str, Any]]],
    send: Callable[[Mapping[str, Any]], Awaitable[None]],
) -> None:
    """The ASGI lifespan (uvicorn and granian send it; daphne does not): at startup
    SIGTERM is made to drain first where the server allows it
    (cuatrola_site/shutdown.py); nothing to do at shutdown (the drain has run)."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            site_shutdown.install_on_signal()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


application = ProtocolTypeRouter(
    {
        "http": http_application,
        "lifespan": lifespan_application,
        "websocket": AllowedHostsOriginValidator(
            ConnectLimit(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

# Under daphne (the benches), SIGTERM drains the process first (cuatrola_site/shutdown.py);
# under uvicorn the lifespan's startup installs the drain.
site_shutdown.install_on_daphne()
