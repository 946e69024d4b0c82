// Tournament pages: a <time data-countdown datetime="…"> shows the time left as
// h:mm:ss once it is less than a day away, ticking every second (the server's
// "in 2 hours" text stays beside it for readers without JavaScript). Regions swapped
// by htmx bring new countdowns, found again on each tick.
(() => {
  const pad = (n) => String(n).padStart(2, "0");
  const tick = () => {
    const now = Date.now();
    for (const el of document.querySelectorAll("time[data-countdown]")) {
      const left = Math.max(0, Math.round((Date.parse(el.getAttribute("datetime")) - now) / 1000));
      if (Number.isNaN(left) || left >= 86400) {
        el.hidden = true;
        continue;
      }
      const h = Math.floor(left / 3600);
      const m = Math.floor((left % 3600) / 60);
      el.textContent = h ? `${h}:${pad(m)}:${pad(left % 60)}` : `${m}:${pad(left % 60)}`;
      el.classList.toggle("countdown-low", left < 120);
      el.hidden = false;
    }
  };
  tick();
  setInterval(tick, 1000);
})();

// A tournament's page: its live region is polled and replaced whole (htmx outerHTML),
// which screen readers do not announce. When the player's notice changes ("Round 3:
// you play at table 12"), its text is said once through a stable live region.
(() => {
  const noticeText = () =>
    document.querySelector("[data-tournament-notice]")?.textContent.replace(/\s+/g, " ").trim() ?? "";
  let last = noticeText();
  document.addEventListener("htmx:afterSettle", () => {
    const now = noticeText();
    const announce = document.getElementById("tournament-announce");
    if (announce && now && now !== last) {
      announce.textContent = now;
    }
    last = now;
  });
})();
