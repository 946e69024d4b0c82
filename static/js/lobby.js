// Lobby: reload the invitations region whenever the server says they changed.
(function () {
  "use strict";
  const root = document.getElementById("lobby-root");
  if (!root) return;
  const url = root.dataset.invitationsUrl;
  let delay = 500;
  // Invitations only arrive while the socket is open: say so when it is not.
  const status = document.createElement("p");
  status.className = "connection-status";
  status.setAttribute("role", "status");
  root.prepend(status);

  function refresh() {
    if (window.htmx) {
      window.htmx.ajax("GET", url, { target: "#invitations", swap: "outerHTML" });
    }
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(scheme + "://" + window.location.host + "/ws/lobby/");
    socket.addEventListener("open", function () {
      delay = 500;
      status.textContent = "";
      refresh(); // anything missed while disconnected
    });
    socket.addEventListener("message", function (event) {
      const frame = JSON.parse(event.data);
      if (frame.type === "lobby") refresh();
    });
    socket.addEventListener("close", function (event) {
      if (event.code === 4401 || event.code === 4403) return;
      status.textContent = window.gettext
        ? window.gettext("Connection lost: reconnecting…")
        : "Connection lost: reconnecting…";
      window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    });
  }
  connect();
})();
