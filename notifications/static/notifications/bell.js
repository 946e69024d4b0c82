// The navigation's bell (docs/notifications.md): its unread count changes in place
// when a lobby socket on the page hears `{"type": "notifications", "unread": N}`
// (static/js/lobby.js dispatches it as the `cuatrola:notifications` event). A page
// drawn without a cached count fetches the bell once (/notifications/count/). A page
// without an open lobby socket reads the cached count (/notifications/unread/) every
// `data-poll` seconds while the tab is visible, at once when it shows again, and never
// while hidden; a signed-out answer (401) stops it.
(function () {
  "use strict";
  let timer = 0;
  let stopped = false;

  function update(count) {
    const bell = document.getElementById("nav-bell");
    if (!bell || typeof count !== "number" || count < 0) return;
    const number = bell.querySelector(".nav-bell-count");
    if (!number) return;
    number.textContent = String(count);
    bell.dataset.unread = String(count);
    bell.classList.toggle("nav-bell-unread", count > 0);
    let label = bell.dataset.labelSome.replace("{count}", String(count));
    if (count === 0) label = bell.dataset.labelNone;
    else if (count === 1) label = bell.dataset.labelOne;
    bell.setAttribute("aria-label", label);
  }

  // No count in the cache when the page was drawn: ask for the bell once.
  function fetchBell() {
    const bell = document.getElementById("nav-bell");
    if (!bell?.dataset.countUrl) return;
    fetch(bell.dataset.countUrl, { credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.text() : "";
      })
      .then(function (html) {
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("nav-bell");
        if (fresh) bell.replaceWith(document.adoptNode(fresh));
      })
      .catch(function () {});
  }

  // The lobby socket brings the count itself while it is open.
  function lobbyLive() {
    const root = document.getElementById("lobby-root");
    return root !== null && root.dataset.socket === "open";
  }

  function poll() {
    const bell = document.getElementById("nav-bell");
    if (stopped || !bell?.dataset.pollUrl || lobbyLive()) return;
    fetch(bell.dataset.pollUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 401) {
          stopped = true;
          stop();
          return null;
        }
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (data) update(data.unread);
      })
      .catch(function () {});
  }

  function stop() {
    if (timer) window.clearInterval(timer);
    timer = 0;
  }

  function start() {
    stop();
    const bell = document.getElementById("nav-bell");
    const seconds = bell ? Number(bell.dataset.poll) || 0 : 0;
    if (stopped || seconds <= 0 || document.visibilityState === "hidden") return;
    timer = window.setInterval(poll, seconds * 1000);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      poll();
      start();
    } else {
      stop();
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fetchBell);
  else fetchBell();
  start();
  window.addEventListener("cuatrola:notifications", function (event) {
    update(event.detail?.unread);
  });
})();
