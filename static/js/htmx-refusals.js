// Refusals that come back through htmx are shown (docs/architecture.md, "Refusals
// through htmx"). htmx 2 swaps no 4xx or 5xx answer by itself, so a refused form
// used to show nothing at all. Here, on every htmx answer:
// - a 4xx answer carrying the server's short message (an element marked
//   `data-refusal`: the error pages, or their fragment for htmx) is said in an alert
//   line next to the form, link or region that asked, and nothing is swapped;
// - a 4xx answer that is a region redrawn with its refusal in it (the coach's 429)
//   is swapped into its target as a success would be;
// - any other 4xx, a 5xx, a network failure or a timeout: a short translated
//   message in the same alert line.
// A later answer to the same element that succeeds takes the line away; an answer
// redirected to a whole page elsewhere (signed out: the log-in page) goes there.
(function () {
  "use strict";
  const gettext =
    window.gettext ||
    function (message) {
      return message;
    };
  const LINE = "htmx-refusal";

  function anchorOf(element) {
    return element.closest("form") || element;
  }

  function lineAfter(anchor) {
    const next = anchor.nextElementSibling;
    return next?.classList.contains(LINE) ? next : null;
  }

  function say(element, message) {
    if (!element?.isConnected) return;
    const anchor = anchorOf(element);
    let line = lineAfter(anchor);
    if (!line) {
      line = document.createElement("p");
      line.className = LINE + " form-error";
      line.setAttribute("role", "alert");
      anchor.after(line);
    }
    line.textContent = message;
  }

  function clear(element) {
    if (!element?.isConnected) return;
    const line = lineAfter(anchorOf(element));
    if (line) line.remove();
  }

  function wholePage(body) {
    return /<html[\s>]/i.test(body);
  }

  // The server's short message, if the answer carries one.
  function refusalIn(body) {
    if (!body || body.indexOf("data-refusal") < 0) return "";
    const parsed = new DOMParser().parseFromString(body, "text/html");
    return Array.from(parsed.querySelectorAll("[data-refusal]"))
      .map(function (node) {
        return node.textContent.replace(/\s+/g, " ").trim();
      })
      .filter(Boolean)
      .map(function (part) {
        return /[.!?…:;]$/.test(part) ? part : part + ".";
      })
      .join(" ");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const status = detail.xhr.status;
    const body = detail.xhr.responseText || "";
    if (status < 400) {
      clear(detail.elt);
      const redirected = detail.xhr.responseURL ? new URL(detail.xhr.responseURL) : null;
      if (
        redirected &&
        redirected.pathname !== new URL(detail.pathInfo.requestPath, window.location.href).pathname &&
        wholePage(body)
      ) {
        // Sent elsewhere (signed out: the log-in page): a whole page, not a region.
        detail.shouldSwap = false;
        window.location.assign(redirected.href);
      }
      return;
    }
    detail.shouldSwap = false;
    if (status < 500) {
      const refusal = refusalIn(body);
      if (refusal) {
        say(detail.elt, refusal);
        return;
      }
      if (body.trim() && !wholePage(body)) {
        // A region redrawn with its reason: drawn as a success would be.
        detail.shouldSwap = true;
        detail.isError = false;
        return;
      }
      say(detail.elt, gettext("That could not be done. Reload the page and try again."));
      return;
    }
    say(detail.elt, gettext("Something went wrong on our side. Nothing was changed; try again in a moment."));
  });

  function unreachable(event) {
    say(event.detail.elt, gettext("The site could not be reached. Check your connection and try again."));
  }
  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);
})();
