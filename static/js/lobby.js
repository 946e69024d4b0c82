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
  const gettext =
    window.gettext ||
    function (message) {
      return message;
    };
  let delay = 500;
  let restartingUntil = 0; // after a restart's close (4500): retries a second apart until then
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
      restartingUntil = 0;
    });
    socket.addEventListener("message", function (event) {
      const frame = JSON.parse(event.data);
      if (frame.type === "lobby" && follows.indexOf(frame.what) >= 0) refresh();
      // The bell's unread count (static/js/bell.js).
      if (frame.type === "notifications") {
        window.dispatchEvent(new CustomEvent("cuatrola:notifications", { detail: { unread: frame.unread } }));
      }
    });
    socket.addEventListener("close", function (event) {
      root.dataset.socket = "closed";
      // Final refusals (docs/protocol.md, close codes): say why and stop.
      if (event.code === 4401 || event.code === 4403) {
        root.dataset.socket = "refused";
        status.setAttribute("role", "alert");
        status.textContent =
          event.code === 4401
            ? gettext("You are not signed in any more. Reload the page to sign in again.")
            : gettext("Your account is suspended: invitations cannot reach this page.");
        return;
      }
      if (event.code === 4430 || event.code === 4431) {
        // Too many sockets for the account or the address: try again slowly.
        status.textContent = gettext(
          "Too many connections are open at once for your account or your network. Close another tab of this site; trying again in 30 seconds…",
        );
        window.setTimeout(connect, 30000);
        return;
      }
      if (event.code === 4500) {
        // The web process restarts: reconnect at once (to another one), spread over
        // half a second (docs/protocol.md).
        delay = 500;
        restartingUntil = Date.now() + 30000;
        window.setTimeout(connect, Math.random() * 500);
        return;
      }
      if (Date.now() < restartingUntil) {
        // Within a restart the front door may not know yet which process is back:
        // again about every second, no backing off (as static/js/table.js).
        window.setTimeout(connect, 700 + Math.random() * 600);
        return;
      }
      status.textContent = gettext("Connection lost: reconnecting…");
      window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    });
  }
  connect();
})();
