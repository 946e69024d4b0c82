// The site's navigation folds into a "Menu" button on narrow screens (site.css decides
// the width; on wider screens the button is not shown and the links always are).
// Without JavaScript the navigation stays unfolded.
(function () {
  "use strict";
  const button = document.querySelector(".site-header .nav-toggle");
  const menu = document.getElementById("site-menu");
  if (!button || !menu) return;
  const header = button.closest(".site-header");

  function open(yes) {
    button.setAttribute("aria-expanded", yes ? "true" : "false");
    header.classList.toggle("nav-open", yes);
  }

  header.classList.add("nav-folding");
  button.hidden = false;
  button.addEventListener("click", function () {
    open(button.getAttribute("aria-expanded") !== "true");
  });
  // Escape closes the open menu and gives the focus back to its button.
  header.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && header.classList.contains("nav-open")) {
      open(false);
      button.focus();
    }
  });
})();
