/* The query page: YASGUI on this server's /sparql, only local autocompleters
   (prefixes from /api/prefixes, variables), example queries one click away with
   their question kept above the answer, IRIs shown as prefixed names and linked
   to this server's pages, and the endpoint's errors shown readably. */
(function () {
  "use strict";
  /* Relative to the page (served at / and /sparql), so that it works under any base path. */
  var endpoint = new URL("sparql", document.baseURI).href;
  function embedded(id) { return JSON.parse(document.getElementById(id).textContent); }
  var examples = embedded("kg-examples");
  var start = embedded("kg-start");
  var prefixes = embedded("kg-prefixes");
  /* Longest namespace first, so that IRIs read person:juan-guaido rather than kgr:person/juan-guaido. */
  var abbreviations = {};
  Object.keys(prefixes).sort(function (a, b) { return prefixes[b].length - prefixes[a].length; })
    .forEach(function (p) { abbreviations[p] = prefixes[p]; });
  var links = embedded("kg-links");
  document.getElementById("endpoint").textContent = endpoint;

  var notice = document.getElementById("notice");
  var errorBox = document.getElementById("query-error");
  var question = document.getElementById("question");

  /* The endpoint's error document ({"error": {"detail", "line", "column", ...}}) as readable text. */
  function showError(status, body) {
    var detail = body, title = "Error " + status;
    try {
      var error = JSON.parse(body).error;
      detail = error.detail;
      title = error.status + " " + error.title;
    } catch (e) { /* not our JSON: show the text as it is */ }
    errorBox.textContent = "";
    var heading = document.createElement("strong");
    heading.textContent = title;
    var pre = document.createElement("pre");
    pre.textContent = detail;
    errorBox.appendChild(heading);
    errorBox.appendChild(pre);
    errorBox.hidden = false;
  }

  /* Yasr shows this instead of the raw body: the message is in the box above the editor. */
  function readableError() {
    var div = document.createElement("p");
    div.className = "kg-error-note";
    div.textContent = "No answer: the server refused the query (the message is above the editor).";
    return Promise.resolve(div);
  }
  if (Yasgui.Yasr && Yasgui.Yasr.defaults) Yasgui.Yasr.defaults.errorRenderers = [readableError];

  var yasgui = new Yasgui(document.getElementById("yasgui"), {
    requestConfig: { endpoint: endpoint, method: "POST" },
    copyEndpointOnNewTab: true,
    endpointCatalogueOptions: { getData: function () { return [{ endpoint: endpoint }]; } },
    persistenceId: null,
    yasqe: {
      value: start,
      autocompleters: ["prefixes", "variables"],
      prefixCcApi: new URL("api/prefixes", document.baseURI).href,
      persistenceId: null
    },
    yasr: { persistenceId: null, prefixes: abbreviations }
  });
  window.kgYasgui = yasgui;

  /* The page of this server that describes an IRI of the graph (every IRI under the base
     dereferences: its path is the rest of the IRI), or null for other IRIs. */
  function localPage(iri) {
    return iri.indexOf(links.base) === 0 ? iri.slice(links.base.length) : null;
  }

  /* Point the answer's links at this server's pages (the table redraws when paged or sorted). */
  function relink(root) {
    root.querySelectorAll("a[href^='" + links.base + "']").forEach(function (a) {
      if (a.dataset.kgIri) return;
      var iri = a.getAttribute("href");
      a.dataset.kgIri = iri;
      a.title = iri;
      var page = localPage(iri);
      if (page) {
        a.setAttribute("href", page);
      } else {
        a.removeAttribute("href");
      }
    });
  }
  new MutationObserver(function () { relink(document.getElementById("yasgui")); })
    .observe(document.getElementById("yasgui"), { childList: true, subtree: true });

  /* Tell the reader when the server cut the answer at its row cap, and show its errors. */
  function watch(tab) {
    var yasqe = tab.getYasqe();
    if (!yasqe || yasqe.kgWatched) return;
    yasqe.kgWatched = true;
    yasqe.on("query", function () { errorBox.hidden = true; });
    yasqe.on("change", function () { forget(yasqe); });
    yasqe.on("queryResponse", function () {
      for (var i = 0; i < arguments.length; i++) {
        var response = arguments[i];
        if (response && response.headers && typeof response.headers.get === "function") {
          var cut = response.headers.get("X-KG-Truncated") === "true";
          var limit = response.headers.get("X-KG-Row-Limit");
          notice.textContent = cut ? "The answer was cut at " + limit + " rows (the server's row cap)." : "";
          document.body.setAttribute("data-truncated", cut ? "true" : "false");
        } else if (response instanceof Error) {
          showError("", response.message);  /* YASQE puts the body of an error response in the message */
        }
      }
    });
  }
  yasgui.on("query", function (instance, tab) { watch(tab); });
  watch(yasgui.getTab());

  function run(example) {
    var tab = yasgui.getTab();
    tab.setEndpoint(endpoint);
    tab.setQuery(example.portable);
    watch(tab);
    /* The PREFIX lines keep the editor's checker content; folded, the query itself shows. */
    tab.getYasqe().collapsePrefixes(true);
    document.getElementById("question-title").textContent = example.title + ":";
    document.getElementById("question-text").textContent = example.question;
    question.hidden = false;
    question.setAttribute("data-example", example.id);
    shown = example;
    tab.getYasqe().query();
  }

  /* The question stays above the answer until the query is edited into another one. */
  var shown = null;
  yasgui.on("tabSelect", function () { question.hidden = true; shown = null; });
  function forget(yasqe) {
    if (shown && yasqe.getValue().trim() !== shown.portable.trim()) {
      question.hidden = true;
      shown = null;
    }
  }

  document.querySelectorAll("#examples button[data-example]").forEach(function (button) {
    button.addEventListener("click", function () {
      var id = button.getAttribute("data-example");
      var example = examples.find(function (e) { return e.id === id; });
      if (example) run(example);
    });
  });
})();
