// The drawn Spanish deck for scripts: window.CuatrolaCards (docs/cards.md).
//
// Builds the same <img class="card card--SIZE"> elements as the {% card %} and
// {% card_back %} template tags, from the URLs and names that {% card_assets %}
// puts on the page (<script type="application/json" id="card-assets">), so
// hashed static file names and the page's language are respected.
//
//   CuatrolaCards.face("11c", {size: "trick", label: "caballo de copas"})
//   CuatrolaCards.face("11c", {size: "hand"})       // label: the page's name of the card
//   CuatrolaCards.back({size: "hand"})              // named "carta boca abajo" (translated)
//   CuatrolaCards.back({size: "trick", label: ""})  // decorative: a count says it
//   CuatrolaCards.configure(assets)                 // instead of #card-assets (e.g. offline)
//
// A bad code or size throws an Error naming it. No dependencies, no build step.
(function () {
  "use strict";

  var assets = null;

  function load() {
    if (assets) {
      return assets;
    }
    var element = document.getElementById("card-assets");
    if (!element) {
      throw new Error("CuatrolaCards: no #card-assets on the page (add {% card_assets %})");
    }
    assets = JSON.parse(element.textContent);
    return assets;
  }

  function width(size) {
    var sizes = load().sizes;
    if (!Object.hasOwn(sizes, size)) {
      throw new Error(
        "CuatrolaCards: " + JSON.stringify(size) + " is not a card size (" + Object.keys(sizes).join(", ") + ")",
      );
    }
    return sizes[size];
  }

  function image(src, size, label, extraClass) {
    var w = width(size);
    var img = document.createElement("img");
    img.className = "card card--" + size + extraClass;
    img.src = src;
    img.alt = label;
    img.width = w;
    img.height = Math.round((w * 200) / 130);
    img.draggable = false;
    if (!label) {
      img.setAttribute("aria-hidden", "true");
    }
    return img;
  }

  function checkCode(code) {
    if (!Object.hasOwn(load().faces, code)) {
      throw new Error("CuatrolaCards: " + JSON.stringify(code) + " is not a card code");
    }
  }

  window.CuatrolaCards = {
    /** Uses these assets ({faces, back, names, backName, sizes}) instead of #card-assets. */
    configure: function (data) {
      assets = data;
    },
    /** Every card code, strongest suit order as the engine lists them. */
    codes: function () {
      return Object.keys(load().faces);
    },
    /** The card's name in the page's language ("caballo de copas"). */
    name: function (code) {
      checkCode(code);
      return load().names[code];
    },
    /** The URL of a card face (or of the back for "back"). */
    url: function (code) {
      if (code === "back") {
        return load().back;
      }
      checkCode(code);
      return load().faces[code];
    },
    /** <img class="card card--SIZE" data-card=CODE alt=LABEL>; label defaults to the name. */
    face: function (code, options) {
      options = options || {};
      checkCode(code);
      var data = load();
      var label = options.label === undefined ? data.names[code] : String(options.label);
      var img = image(data.faces[code], options.size || "replay", label, "");
      img.setAttribute("data-card", code);
      return img;
    },
    /** A face-down card; label "" makes it decorative (a count next to it says it). */
    back: function (options) {
      options = options || {};
      var data = load();
      var label = options.label === undefined ? data.backName : String(options.label);
      return image(data.back, options.size || "replay", label, " card--back");
    },
  };
})();
