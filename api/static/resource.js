/* The copy buttons of a resource page: each copies the citation beside it. When the
   clipboard is not available (an insecure origin, a denied permission) the citation is
   selected instead, ready for Ctrl+C. */
(function () {
  "use strict";
  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  Array.prototype.forEach.call(document.querySelectorAll("button.copy"), function (button) {
    var citation = button.parentNode.querySelector("code");
    button.addEventListener("click", function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(citation.textContent).then(function () {
          button.textContent = "Copied";
        }, function () { select(citation); });
      } else {
        select(citation);
      }
    });
  });
})();
