// Offer to reload when the server answers from a newer build (kg serve --watch, or a kg build
// run beside the server): /health names the build being served.
(function () {
  "use strict";
  var banner = document.getElementById("new-build");
  if (!banner || !window.fetch) { return; }
  var first = null;
  function look() {
    fetch("health", {cache: "no-store"}).then(function (r) { return r.ok ? r.json() : null; }).then(function (h) {
      if (!h || !h.build) { return; }
      if (first === null) { first = h.build; return; }
      if (h.build !== first) { banner.hidden = false; }
    }).catch(function () { /* the server restarts: try again later */ });
  }
  banner.querySelector("button").addEventListener("click", function () { window.location.reload(); });
  look();
  window.setInterval(look, 3000);
}());
