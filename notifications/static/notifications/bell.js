// The navigation's bell (docs/notifications.md): its unread count changes in place
// when a lobby socket on the page hears `{"type": "notifications", "unread": N}`
// (static/js/lobby.js dispatches it as the `cuatrola:notifications` event).
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
  window.addEventListener("cuatrola:notifications", function (event) {
    update(event.detail && event.detail.unread);
  });
})();
