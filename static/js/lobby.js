// Lobby socket: reload a region of the page whenever the server says what it shows
// changed — the lobby's invitations, or the friends page (requests, friends). The
// page names the region (`data-refresh-target`), its URL and the changes it follows
// (`data-refresh-on`, space-separated; the lobby's: "invitations").
(function () {
  "use strict";
  const root = document.getElementById("lobby-root");
  if (!root) return;
  const url = root.dataset.refreshUrl || root.dataset.invitationsUrl;
  const target = root.dataset.refreshTarget || "#invitations";
  const follows = (root.dataset.refreshOn || "invitations").split(" ");
  let delay = 500;
  let reconnected = false;
  // Invitations only arrive while the socket is open: say so when it is not.
  const status = document.createElement("p");
  status.className = "connection-status";
  status.setAttribute("role", "status");
  root.prepend(status);

  function refresh() {
    if (window.htmx) {
      window.htmx.ajax("GET", url, { target: target, swap: "outerHTML" });
    }
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(scheme + "://" + window.location.host + "/ws/lobby/");
    socket.addEventListener("open", function () {
      delay = 500;
      status.textContent = "";
      // Anything missed while disconnected (the friends page's first socket: nothing
      // since the page was drawn worth wiping an answer shown meanwhile).
      if (reconnected || !root.dataset.refreshUrl) refresh();
      reconnected = true;
      root.dataset.socket = "open";
    });
    socket.addEventListener("message", function (event) {
      const frame = JSON.parse(event.data);
      if (frame.type === "lobby" && follows.indexOf(frame.what) >= 0) refresh();
    });
    socket.addEventListener("close", function (event) {
      root.dataset.socket = "closed";
      if (event.code === 4401 || event.code === 4403) return;
      if (event.code === 4500) {
        // The web process restarts: reconnect at once (to another one), spread over
        // half a second (docs/protocol.md).
        delay = 500;
        window.setTimeout(connect, Math.random() * 500);
        return;
      }
      status.textContent = window.gettext
        ? window.gettext("Connection lost: reconnecting…")
        : "Connection lost: reconnecting…";
      window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    });
  }
  connect();
})();
