// Keyboard for the match replay: arrows step a card, Shift+arrows a trick, Home/End.
(function () {
  "use strict";
  var keys = {
    ArrowRight: "next",
    ArrowLeft: "previous",
    Home: "first",
    End: "last",
  };
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) {
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var action = keys[event.key];
    if (!action) {
      return;
    }
    if (event.shiftKey && (action === "next" || action === "previous")) {
      action += "-trick";
    }
    var link = document.querySelector('#replay [data-replay="' + action + '"]');
    if (link) {
      event.preventDefault();
      link.click();
    }
  });
})();
