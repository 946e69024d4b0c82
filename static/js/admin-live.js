// The staff's live view (templates/admin/live.html): the figures are fetched again
// every `data-refresh` seconds and put in place, without reloading the page (a
// reload would move the focus and the scroll). The button pauses and resumes it.
(function () {
  "use strict";
  const root = document.getElementById("live-figures");
  const toggle = document.getElementById("live-pause");
  if (!root || !toggle) return;
  const seconds = Number(root.dataset.refresh) || 30;
  let timer = null;

  function refresh() {
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (text) {
        const fresh = new DOMParser().parseFromString(text, "text/html").getElementById("live-figures");
        if (fresh) root.replaceChildren(...fresh.childNodes);
      })
      .catch(function () {
        // Signed out or the server away: the figures stay as they were; next time.
      });
  }

  function start() {
    timer = window.setInterval(refresh, seconds * 1000);
    toggle.textContent = toggle.dataset.pause;
    toggle.setAttribute("aria-pressed", "false");
  }

  function stop() {
    window.clearInterval(timer);
    timer = null;
    toggle.textContent = toggle.dataset.resume;
    toggle.setAttribute("aria-pressed", "true");
  }

  toggle.hidden = false;
  toggle.addEventListener("click", function () {
    if (timer === null) {
      refresh();
      start();
    } else {
      stop();
    }
  });
  start();
})();
