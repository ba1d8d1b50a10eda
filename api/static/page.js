/* The query page: YASGUI on this server's /sparql, only local autocompleters
   (prefixes from /api/prefixes, variables), example queries one click away. */
(function () {
  "use strict";
  var endpoint = window.location.origin + "/sparql";
  var examples = JSON.parse(document.getElementById("kg-examples").textContent);
  var start = JSON.parse(document.getElementById("kg-start").textContent);
  document.getElementById("endpoint").textContent = endpoint;

  var yasgui = new Yasgui(document.getElementById("yasgui"), {
    requestConfig: { endpoint: endpoint, method: "POST" },
    copyEndpointOnNewTab: true,
    endpointCatalogueOptions: { getData: function () { return [{ endpoint: endpoint }]; } },
    persistenceId: null,
    yasqe: {
      value: start,
      autocompleters: ["prefixes", "variables"],
      prefixCcApi: window.location.origin + "/api/prefixes",
      persistenceId: null
    },
    yasr: { persistenceId: null, prefixes: {} }
  });
  window.kgYasgui = yasgui;

  var notice = document.getElementById("notice");

  /* Tell the reader when the server cut the answer at its row cap. */
  function watch(tab) {
    var yasqe = tab.getYasqe();
    if (!yasqe || yasqe.kgWatched) return;
    yasqe.kgWatched = true;
    yasqe.on("queryResponse", function () {
      for (var i = 0; i < arguments.length; i++) {
        var response = arguments[i];
        if (response && response.headers && typeof response.headers.get === "function") {
          var cut = response.headers.get("X-KG-Truncated") === "true";
          var limit = response.headers.get("X-KG-Row-Limit");
          notice.textContent = cut ? "The answer was cut at " + limit + " rows (the server's row cap)." : "";
          document.body.setAttribute("data-truncated", cut ? "true" : "false");
        }
      }
    });
  }
  yasgui.on("query", function (instance, tab) { watch(tab); });
  watch(yasgui.getTab());

  function run(example) {
    var tab = yasgui.getTab();
    tab.setEndpoint(endpoint);
    tab.setQuery(example.query);
    watch(tab);
    notice.textContent = example.question;
    tab.getYasqe().query();
  }

  document.querySelectorAll("#examples button[data-example]").forEach(function (button) {
    button.addEventListener("click", function () {
      var id = button.getAttribute("data-example");
      var example = examples.find(function (e) { return e.id === id; });
      if (example) run(example);
    });
  });
})();
