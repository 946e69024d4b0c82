// Table page: one websocket per tab (docs/protocol.md). Each frame tells us the
// table changed; the board region is then re-rendered by the server (htmx GET),
// so the HTML a seat sees is built from that seat's view only.
(function () {
  "use strict";
  const root = document.getElementById("table-root");
  if (!root) return;
  const tableId = root.dataset.table;
  const boardUrl = root.dataset.boardUrl;
  const statusLine = document.getElementById("connection-status");
  const errorLine = document.getElementById("socket-error");
  let socket = null;
  let lastSeq = 0;
  let delay = 500;
  let sessionWasOpen = false; // a socket of this page has been open at least once
  let inFlight = false;
  let pending = false;

  function text(el, value) {
    if (el) el.textContent = value;
  }

  function refresh() {
    if (!window.htmx) return;
    if (inFlight) {
      pending = true;
      return;
    }
    inFlight = true;
    window.htmx
      .ajax("GET", boardUrl, { target: "#board", swap: "outerHTML" })
      .finally(function () {
        inFlight = false;
        if (pending) {
          pending = false;
          refresh();
        }
      });
  }

  function onFrame(frame) {
    if (frame.type === "state" || frame.type === "update") {
      if (frame.type === "update" && lastSeq && frame.seq > lastSeq + 1) {
        // A gap: ask for the whole state again.
        socket.send(JSON.stringify({ type: "sync" }));
      }
      if (frame.seq >= lastSeq) {
        lastSeq = frame.seq;
        const board = document.getElementById("board");
        if (!board || String(frame.seq) !== board.dataset.seq) refresh();
      }
    } else if (frame.type === "error") {
      text(errorLine, frame.message);
    } else if (frame.type === "ack") {
      text(errorLine, "");
    }
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(scheme + "://" + window.location.host + "/ws/tables/" + tableId + "/");
    socket.addEventListener("open", function () {
      sessionWasOpen = true;
      delay = 500;
      text(statusLine, "");
      root.classList.remove("offline");
    });
    socket.addEventListener("message", function (event) {
      try {
        onFrame(JSON.parse(event.data));
      } catch (error) {
        // A frame we cannot read: resynchronise.
        socket.send(JSON.stringify({ type: "sync" }));
      }
    });
    socket.addEventListener("close", function (event) {
      root.classList.add("offline");
      text(statusLine, root.dataset.offlineText || "…");
      // 4401 on a socket that was open: the session ended (logged out, or the password
      // changed). Reloading shows the table again, or the log-in page if signed out.
      if (event.code === 4401 && sessionWasOpen) {
        window.location.reload();
        return;
      }
      if (event.code === 4401 || event.code === 4403 || event.code === 4404) return;
      window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    });
  }

  // Cards and bids: sent over the socket with the version this board showed;
  // without an open socket the form posts over HTTP instead (same service).
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.classList.contains("leave-form")) {
      if (!window.confirm(form.dataset.confirm || "?")) event.preventDefault();
      return;
    }
    if (!form.classList.contains("play-form")) return;
    if (!socket || socket.readyState !== WebSocket.OPEN || !event.submitter) return;
    event.preventDefault();
    text(errorLine, "");
    form.querySelectorAll("button").forEach(function (b) {
      b.disabled = true;
    });
    socket.send(
      JSON.stringify({
        type: "play",
        action: event.submitter.value,
        version: parseInt(form.dataset.version, 10),
      })
    );
  });

  // The turn countdown, from the deadline stored with the match.
  window.setInterval(function () {
    const el = document.querySelector(".countdown[data-deadline]");
    if (!el || !el.dataset.deadline) return;
    const left = Math.max(0, Math.ceil(parseInt(el.dataset.deadline, 10) - Date.now() / 1000));
    el.textContent = left + " s";
    el.classList.toggle("countdown-low", left <= 5);
  }, 250);

  connect();
})();
