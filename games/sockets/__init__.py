"""The websocket interface of the games app (docs/architecture.md, "The socket interface")."""
