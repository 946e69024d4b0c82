// Web Push, opt-in per device (docs/notifications.md). An offer
// (`[data-push-offer]`) is drawn only after an action that shows the need (a
// friend request sent; the notification settings page); it stays hidden where the
// browser cannot push, was refused, or this device is already subscribed. The
// browser's permission prompt comes only from the player's click on "Turn on".
(function () {
  "use strict";
  const gettext =
    window.gettext ||
    function (message) {
      return message;
    };
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = window.atob(padded);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function csrf() {
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field) return field.value;
    const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
    });
  }

  function setUp(offer) {
    if (offer.dataset.pushReady) return;
    offer.dataset.pushReady = "1";
    const on = offer.querySelector("[data-push-on]");
    const off = offer.querySelector("[data-push-off]");
    const status = offer.querySelector("[data-push-status]");
    if (!supported || Notification.permission === "denied") return;

    function show(subscribed) {
      offer.hidden = false;
      on.hidden = subscribed;
      off.hidden = !subscribed;
      offer.dataset.pushState = subscribed ? "on" : "off";
    }

    navigator.serviceWorker.ready
      .then(function (registration) {
        return registration.pushManager.getSubscription();
      })
      .then(function (subscription) {
        // An offer that is not the settings page's hides once this device is subscribed.
        if (subscription && offer.dataset.pushAlways === undefined) return;
        show(Boolean(subscription));
      })
      .catch(function () {
        offer.hidden = true;
      });

    on.addEventListener("click", function () {
      status.textContent = "";
      Notification.requestPermission()
        .then(function (answer) {
          if (answer !== "granted") throw new Error("refused");
          return navigator.serviceWorker.ready;
        })
        .then(function (registration) {
          return registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(offer.dataset.key),
          });
        })
        .then(function (subscription) {
          return post(offer.dataset.subscribeUrl, subscription.toJSON());
        })
        .then(function (response) {
          if (!response.ok) throw new Error("server");
          show(true);
          status.textContent = gettext("Notifications are on for this device.");
        })
        .catch(function () {
          status.textContent = gettext("This browser could not turn notifications on.");
        });
    });

    off.addEventListener("click", function () {
      navigator.serviceWorker.ready
        .then(function (registration) {
          return registration.pushManager.getSubscription();
        })
        .then(function (subscription) {
          if (!subscription) return null;
          const endpoint = subscription.endpoint;
          return subscription.unsubscribe().then(function () {
            return post(offer.dataset.unsubscribeUrl, { endpoint: endpoint });
          });
        })
        .then(function () {
          show(false);
          status.textContent = gettext("Notifications are off for this device.");
        });
    });
  }

  function scan() {
    document.querySelectorAll("[data-push-offer]").forEach(setUp);
  }
  document.addEventListener("DOMContentLoaded", scan);
  document.addEventListener("htmx:afterSettle", scan);
  if (document.readyState !== "loading") scan();
})();
