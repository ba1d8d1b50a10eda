  /* ---- start ---------------------------------------------------------------- */

  function wire() {
    $("search").addEventListener("input", showResults);
    $("search").addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") {
        lookup($("search").value).then(function (hits) {
          if (!hits.length) return;
          $("results").hidden = true;
          if (nodeById.has(hits[0])) selectNode(hits[0]); else bring(hits[0]);
        });
      } else if (ev.key === "Escape") {
        $("results").hidden = true;
      } else if (ev.key === "ArrowDown") {
        var first = $("results").querySelector("button");
        if (first) { ev.preventDefault(); first.focus(); }
      }
    });
    $("results").addEventListener("keydown", function (ev) {
      var buttons = Array.prototype.slice.call($("results").querySelectorAll("button"));
      var at = buttons.indexOf(document.activeElement);
      if (ev.key === "ArrowDown" && at < buttons.length - 1) { ev.preventDefault(); buttons[at + 1].focus(); }
      if (ev.key === "ArrowUp") { ev.preventDefault(); (at > 0 ? buttons[at - 1] : $("search")).focus(); }
      if (ev.key === "Escape") { $("results").hidden = true; $("search").focus(); }
    });
    $("focus-btn").addEventListener("click", function () { if (selected) setFocus(selected, $("depth").value); });
    $("unfocus-btn").addEventListener("click", clearFocus);
    $("depth").addEventListener("change", function () { if (focus && !focus.day) setFocus(focus.id, $("depth").value); });
    $("panel-close").addEventListener("click", function () { network.unselectAll(); closePanel(); });
    ["details", "timeline", "figures"].forEach(function (t) {
      $("tab-" + t).addEventListener("click", function () { openTab(t); });
    });
    $("timeline-btn").addEventListener("click", function () { openTab("timeline"); });
    $("figures-btn").addEventListener("click", function () { openTab("figures"); });
    tableButton("timeline", "Timeline", data.timelineSummary ? meta.datedEvents : meta.timelineEvents);
    tableButton("figures", "Figures", data.figureSummary ? meta.figures : meta.figureRows);
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && document.activeElement === document.body && !$("panel").hidden) closePanel();
    });
  }

  /* The header button and panel tab of a table, hidden when the graph has nothing for it. */
  function tableButton(name, text, count) {
    $(name + "-btn").textContent = text + " (" + count.toLocaleString("en") + ")";
    $(name + "-btn").hidden = $("tab-" + name).hidden = !count;
  }

  function initialState() {
    var params = new URLSearchParams(window.location.search);
    var layers = params.get("layer");
    if (layers) {
      layers.split(",").forEach(function (name) {
        meta.layers.forEach(function (f) { if (LAYER_NAMES[f] === name.trim() || f === name.trim()) shownFamilies.add(f); });
      });
      syncLegend();
    }
    return params;
  }

  function initialFocus(params) {
    var date = params.get("date");
    if (date) {
      openTab("timeline");
      focusDay(date);
      return;
    }
    var ident = params.get("focus") || meta.focus;
    if (!ident) return;
    var depth = params.get("depth") || meta.depth || 1;
    var id = resolve(ident);
    if (id !== null) return focusFound(id, depth);
    /* a page holding part of the graph, served: the node may be one it lacks */
    var iri = candidateIri(ident);
    var found = iri ? bring(iri) : lookup(ident).then(function (hits) { return hits.length && !nodeById.has(hits[0]) ? bring(hits[0]) : false; });
    return found.then(function () {
      var now = resolve(ident);
      if (now === null) $("status").textContent = "No entity or event named " + ident;
      else focusFound(now, depth);
    });
  }

  function focusFound(id, depth) {
    var n = nodeById.get(id);
    if (!shownFamilies.has(n.family)) { shownFamilies.add(n.family); syncLegend(); }
    setFocus(id, depth);
  }

  /* The IRI an identifier names when it is one, a key or a prefixed name (else null). */
  function candidateIri(ident) {
    var prefixes = meta.prefixes || {};
    if (/^https?:\/\//.test(ident)) return ident;
    var colon = ident.indexOf(":");
    if (colon > 0 && prefixes[ident.slice(0, colon)]) return prefixes[ident.slice(0, colon)] + ident.slice(colon + 1);
    return /^[a-z]+\/[^\s]+$/.test(ident) && prefixes.kgr ? prefixes.kgr + ident : null;
  }

  var params = initialState();
  buildLegend();
  wire();
  draw();

  return {
    data: data, timings: timings, ready: ready, drawn: drawn, idle: idle, search: search, lookup: lookup, bring: bring,
    resolve: resolve, setFocus: setFocus, clearFocus: clearFocus, selectNode: selectNode, setLayers: setLayers,
    focusDay: focusDay, showDay: showDay, showArticle: showArticle, fetchSelection: fetchSelection, openTab: openTab,
    fit: fitDrawn, partial: PARTIAL, served: SERVED,
    state: function () {
      return {
        focus: focus && { id: focus.id, depth: focus.depth, size: focus.members.size, date: focus.date || null },
        layers: meta.layers.filter(function (f) { return shownFamilies.has(f); }),
        hiddenFamilies: data.legend.map(function (l) { return l.family; }).filter(function (f) { return !shownFamilies.has(f); }),
        visible: nodes.getIds(),
        edges: edges.getIds(),
        labelled: Array.from(labelled.entries()).filter(function (e) { return e[1]; }).map(function (e) { return e[0]; })
      };
    }
  };
