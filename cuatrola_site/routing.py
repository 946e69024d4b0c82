"""Websocket routes of every app, gathered in one list."""

from games.sockets.routing import websocket_urlpatterns as games_websockets

websocket_urlpatterns: list = [*games_websockets]
