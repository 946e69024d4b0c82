// The navigation's bell (docs/notifications.md): its unread count changes in place
// when a lobby socket on the page hears `{"type": "notifications", "unread": N}`
// (static/js/lobby.js dispatches it as the `cuatrola:notifications` event). A page
// drawn without a cached count fetches the bell once (/notifications/count/).
(function () {
  "use strict";
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
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fetchBell);
  else fetchBell();
  window.addEventListener("cuatrola:notifications", function (event) {
    update(event.detail?.unread);
  });
})();
