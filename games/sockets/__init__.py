"""The websocket layer of the games app (docs/architecture.md, "The socket layer")."""
