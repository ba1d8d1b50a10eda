/* The network view: reads the JSON data block, draws it with vis-network and wires
 * the search box, the type filters (the legend), focus mode and the details panel.
 * Text from the corpus reaches the DOM only through textContent (and vis tooltips,
 * which use innerText). `network` is global, as in pyvis pages, so scripts and
 * tests can reach the vis Network; `kgView` exposes the view's state and actions. */
var network = null;
var kgView = (function () {
  "use strict";
  var PHYSICS_MAX_MS = 8000;
  var timings = { start: performance.now() };
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var meta = data.meta;
  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  var nodeById = new Map(data.nodes.map(function (n) { return [n.id, n]; }));
  var adjacency = buildAdjacency();
  var hiddenFamilies = new Set();
  var hiddenNow = new Map();
  var focus = null; // {id, depth, members: Set}
  var selected = null;
  timings.parsed = performance.now();

  var $ = function (id) { return document.getElementById(id); };

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function fold(text) {
    return String(text).normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/ß/g, "ss");
  }

  function buildAdjacency() {
    var adj = new Map();
    data.nodes.forEach(function (n) { adj.set(n.id, []); });
    data.edges.forEach(function (e) {
      adj.get(e.from).push(e.id);
      if (e.to !== e.from) adj.get(e.to).push(e.id);
    });
    return adj;
  }

  function otherEnd(edge, id) { return edge.from === id ? edge.to : edge.from; }

  /* ---- drawing ------------------------------------------------------------ */

  function draw() {
    network = new vis.Network($("network"), { nodes: nodes, edges: edges }, data.options);
    timings.created = performance.now();
    network.once("afterDrawing", function () { timings.firstDraw = performance.now(); });
    if (meta.physics) {
      /* The Python layout is the starting point; physics refines it, then stops. */
      var stop = function () {
        if (timings.stabilized !== undefined) return;
        network.setOptions({ physics: { enabled: false } });
        timings.stabilized = performance.now();
      };
      network.once("stabilized", stop);
      setTimeout(stop, PHYSICS_MAX_MS);
    }
    network.on("click", onClick);
    window.addEventListener("resize", function () { network.redraw(); });
  }

  function onClick(params) {
    if (params.nodes.length) showNode(params.nodes[0]);
    else if (params.edges.length) showEdge(params.edges[0]);
    else closePanel();
  }

  /* ---- the details panel -------------------------------------------------- */

  function openPanel() {
    var body = $("panel-body");
    while (body.firstChild) body.removeChild(body.firstChild);
    delete body.dataset.node;
    delete body.dataset.edge;
    $("panel").hidden = false;
    return body;
  }

  function closePanel() {
    $("panel").hidden = true;
    selected = null;
    $("focus-btn").disabled = true;
  }

  function nodeLink(id) {
    var button = el("button", data.nodeDetails[id].label, "link");
    button.type = "button";
    button.addEventListener("click", function () { selectNode(id); });
    return button;
  }

  function sources(indices) {
    var list = el("ul", null, "sources");
    indices.forEach(function (i) {
      var sentence = data.sentences[i];
      var doc = data.docs[sentence.doc] || { title: "unknown document" };
      var item = el("li");
      item.appendChild(el("blockquote", sentence.text));
      var source = [doc.title, doc.publisher, doc.date].filter(Boolean).join(" — ");
      item.appendChild(el("cite", source));
      list.appendChild(item);
    });
    return list;
  }

  function showNode(id) {
    var d = data.nodeDetails[id];
    if (!d) return;
    selected = id;
    $("focus-btn").disabled = false;
    var body = openPanel();
    body.dataset.node = id;
    body.appendChild(el("h2", d.label));
    body.appendChild(el("div", d.types.join(" · "), "types"));
    body.appendChild(el("div", id, "iri"));
    if (d.alt.length) {
      body.appendChild(el("h3", "Also known as"));
      body.appendChild(el("div", d.alt.join(", "), "alt"));
    }
    var facts = d.facts.slice();
    if (d.mentions) facts.unshift(["mentions", d.mentions]);
    if (facts.length || d.wikidata.length) body.appendChild(factList(facts, d.wikidata));
    body.appendChild(relationList(id));
    if (d.sentences.length) {
      var mentioned = el("details");
      mentioned.appendChild(el("summary", "Mentioned in " + d.sentences.length + " sentence" + (d.sentences.length === 1 ? "" : "s")));
      mentioned.appendChild(sources(d.sentences));
      body.appendChild(mentioned);
    }
  }

  function factList(facts, wikidata) {
    var dl = el("dl");
    facts.forEach(function (f) { dl.appendChild(el("dt", f[0])); dl.appendChild(el("dd", f[1])); });
    wikidata.forEach(function (q) {
      if (!/^Q[0-9]+$/.test(q)) return;
      dl.appendChild(el("dt", "Wikidata"));
      var dd = el("dd");
      var a = el("a", q, "wikidata");
      a.href = "https://www.wikidata.org/wiki/" + q;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      dd.appendChild(a);
      dl.appendChild(dd);
    });
    return dl;
  }

  function relationList(id) {
    var wrap = el("section", null, "relations");
    var ids = adjacency.get(id) || [];
    wrap.appendChild(el("h3", "Relations (" + ids.length + ")"));
    var list = el("ul");
    ids.forEach(function (eid) {
      var e = edges.get(eid);
      if (!e) return;
      var item = el("li", null, "relation");
      item.dataset.edge = eid;
      var outgoing = e.from === id;
      item.appendChild(el("span", (outgoing ? "→ " : "← ") + e.label + ": ", "predicate"));
      item.appendChild(nodeLink(otherEnd(e, id)));
      var indices = data.edgeDetails[eid].sentences;
      item.appendChild(indices.length ? sources(indices) : el("div", "no source sentence", "muted"));
      list.appendChild(item);
    });
    wrap.appendChild(list);
    return wrap;
  }

  function showEdge(eid) {
    var e = edges.get(eid);
    if (!e) return;
    selected = null;
    $("focus-btn").disabled = true;
    var body = openPanel();
    body.dataset.edge = eid;
    var title = el("h2");
    title.appendChild(nodeLink(e.from));
    title.appendChild(el("span", " → " + e.label + " → "));
    title.appendChild(nodeLink(e.to));
    body.appendChild(title);
    body.appendChild(el("div", data.edgeDetails[eid].predicate, "iri"));
    var indices = data.edgeDetails[eid].sentences;
    body.appendChild(el("h3", "Stated in " + indices.length + " sentence" + (indices.length === 1 ? "" : "s")));
    body.appendChild(sources(indices));
  }

  function selectNode(id) {
    if (!nodeById.has(id)) return;
    if (hiddenNow.get(id)) reveal(id);
    network.selectNodes([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 1.0), animation: false });
    showNode(id);
  }

  /* ---- search --------------------------------------------------------------- */

  /* Ranked as /api/search ranks: entities before events, figures and quotes; then the best match of
     any label (whole label, label prefix, word prefix, anywhere); then more mentions; then that label. */
  var NOT_ENTITIES = { Event: 1, Figure: 1, Quote: 1 };

  function bestMatch(keys, q) {
    var best = null;
    keys.split("\n").forEach(function (key) {
      var at = key.indexOf(q), rank;
      if (at < 0) return;
      if (key === q) rank = 0;
      else if (at === 0) rank = 1;
      else rank = /[\p{L}\p{N}]/u.test(key[at - 1]) ? 3 : 2;
      if (best === null || rank < best.rank || (rank === best.rank && key < best.key)) best = { rank: rank, key: key };
    });
    return best;
  }

  function search(query) {
    var q = fold(query).trim().split(/\s+/).join(" ");
    if (!q) return [];
    var hits = [];
    data.nodes.forEach(function (n) {
      var d = data.nodeDetails[n.id];
      var match = bestMatch(d.search, q);
      if (match) hits.push({ id: n.id, kind: NOT_ENTITIES[d.family] ? 1 : 0, rank: match.rank, key: match.key,
                             mentions: d.mentions || 0 });
    });
    hits.sort(function (a, b) {
      return a.kind - b.kind || a.rank - b.rank || b.mentions - a.mentions || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
        data.nodeDetails[a.id].label.localeCompare(data.nodeDetails[b.id].label);
    });
    return hits.map(function (h) { return h.id; });
  }

  function showResults() {
    var list = $("results");
    while (list.firstChild) list.removeChild(list.firstChild);
    var query = $("search").value;
    var hits = search(query);
    list.hidden = !query.trim();
    if (!query.trim()) return;
    if (!hits.length) list.appendChild(el("li", "No match", "muted"));
    hits.slice(0, 30).forEach(function (id) {
      var d = data.nodeDetails[id];
      var item = el("li");
      var button = el("button");
      button.type = "button";
      button.dataset.node = id;
      button.appendChild(el("span", d.label));
      button.appendChild(el("span", "  " + (d.types[0] || d.family), "kind"));
      button.addEventListener("click", function () { list.hidden = true; selectNode(id); });
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  /* ---- filters and focus ---------------------------------------------------- */

  function applyVisibility() {
    var updates = [];
    data.nodes.forEach(function (n) {
      var hide = hiddenFamilies.has(n.group) || (focus !== null && !focus.members.has(n.id));
      if (hide !== (hiddenNow.get(n.id) || false)) {
        hiddenNow.set(n.id, hide);
        updates.push({ id: n.id, hidden: hide });
      }
    });
    if (updates.length) nodes.update(updates);
    var shown = data.nodes.length - Array.from(hiddenNow.values()).filter(Boolean).length;
    $("status").textContent = shown === data.nodes.length ? "" :
      shown + " of " + data.nodes.length + " nodes shown" +
      (focus ? " (focus: " + data.nodeDetails[focus.id].label + ", depth " + focus.depth + ")" : "");
  }

  function reveal(id) {
    hiddenFamilies.delete(nodeById.get(id).group);
    syncLegend();
    if (focus && !focus.members.has(id)) clearFocus();
    else applyVisibility();
  }

  function neighbourhood(id, depth) {
    var seen = new Set([id]);
    var frontier = [id];
    for (var level = 0; level < depth && frontier.length; level++) {
      var next = [];
      frontier.forEach(function (n) {
        adjacency.get(n).forEach(function (eid) {
          var m = otherEnd(edges.get(eid), n);
          if (!seen.has(m)) { seen.add(m); next.push(m); }
        });
      });
      frontier = next;
    }
    return seen;
  }

  function setFocus(id, depth) {
    depth = Math.max(0, Math.min(9, parseInt(depth, 10) || 0));
    focus = { id: id, depth: depth, members: neighbourhood(id, depth) };
    $("depth").value = depth;
    $("unfocus-btn").hidden = false;
    applyVisibility();
    network.fit({ nodes: Array.from(focus.members), animation: false });
    network.selectNodes([id]);
    showNode(id);
    setUrl({ focus: id, depth: depth });
  }

  function clearFocus() {
    focus = null;
    $("unfocus-btn").hidden = true;
    applyVisibility();
    network.fit({ animation: false });
    setUrl({});
  }

  function setUrl(params) {
    try {
      var url = new URL(window.location.href);
      ["focus", "depth"].forEach(function (k) {
        if (params[k] === undefined) url.searchParams.delete(k); else url.searchParams.set(k, params[k]);
      });
      history.replaceState(null, "", url.toString());
    } catch (err) { /* some file: URLs refuse replaceState; the view still works */ }
  }

  /* A focus identifier: a node id (IRI), a canonical key, a prefixed name, or a unique name. */
  function resolve(ident) {
    if (nodeById.has(ident)) return ident;
    var prefixes = meta.prefixes || {};
    if (nodeById.has((prefixes.kgr || "") + ident)) return prefixes.kgr + ident;
    var colon = ident.indexOf(":");
    if (colon > 0 && prefixes[ident.slice(0, colon)]) {
      var iri = prefixes[ident.slice(0, colon)] + ident.slice(colon + 1);
      if (nodeById.has(iri)) return iri;
    }
    var q = fold(ident).trim();
    var exact = data.nodes.filter(function (n) { return data.nodeDetails[n.id].search.split("\n").indexOf(q) >= 0; });
    return exact.length === 1 ? exact[0].id : null;
  }

  /* ---- the legend doubles as the type filter ------------------------------- */

  var SVG = "http://www.w3.org/2000/svg";
  var SHAPES = {
    dot: function (s) { return shape(s, "circle", { cx: 8, cy: 8, r: 6 }); },
    square: function (s) { return shape(s, "rect", { x: 2, y: 2, width: 12, height: 12 }); },
    triangle: function (s) { return shape(s, "polygon", { points: "8,1 15,14 1,14" }); },
    triangleDown: function (s) { return shape(s, "polygon", { points: "1,2 15,2 8,15" }); },
    diamond: function (s) { return shape(s, "polygon", { points: "8,1 15,8 8,15 1,8" }); },
    star: function (s) { return shape(s, "polygon", { points: "8,1 10,6 15,6 11,9 13,15 8,11 3,15 5,9 1,6 6,6" }); },
    hexagon: function (s) { return shape(s, "polygon", { points: "4,1 12,1 16,8 12,15 4,15 0,8" }); }
  };

  function shape(svg, tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    svg.appendChild(node);
    return node;
  }

  function swatch(entry) {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("width", "16");
    svg.setAttribute("height", "16");
    svg.setAttribute("viewBox", "0 0 16 16");
    var mark = (SHAPES[entry.shape] || SHAPES.dot)(svg);
    mark.setAttribute("fill", entry.color);
    return svg;
  }

  function buildLegend() {
    var list = $("legend-list");
    data.legend.forEach(function (entry) {
      if (!entry.count) return;
      var item = el("li");
      var label = el("label");
      var box = el("input");
      box.type = "checkbox";
      box.checked = true;
      box.value = entry.family;
      box.addEventListener("change", function () {
        if (box.checked) hiddenFamilies.delete(entry.family); else hiddenFamilies.add(entry.family);
        applyVisibility();
      });
      label.appendChild(box);
      label.appendChild(swatch(entry));
      label.appendChild(el("span", entry.label + " (" + entry.count + ")"));
      item.appendChild(label);
      list.appendChild(item);
    });
  }

  function syncLegend() {
    Array.prototype.forEach.call($("legend-list").querySelectorAll("input"), function (box) {
      box.checked = !hiddenFamilies.has(box.value);
    });
  }

  /* ---- start ---------------------------------------------------------------- */

  function wire() {
    $("search").addEventListener("input", showResults);
    $("search").addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") {
        var hits = search($("search").value);
        if (hits.length) { $("results").hidden = true; selectNode(hits[0]); }
      } else if (ev.key === "Escape") {
        $("results").hidden = true;
      }
    });
    $("focus-btn").addEventListener("click", function () { if (selected) setFocus(selected, $("depth").value); });
    $("unfocus-btn").addEventListener("click", clearFocus);
    $("depth").addEventListener("change", function () { if (focus) setFocus(focus.id, $("depth").value); });
    $("panel-close").addEventListener("click", function () { network.unselectAll(); closePanel(); });
  }

  function initialFocus() {
    var params = new URLSearchParams(window.location.search);
    var ident = params.get("focus") || meta.focus;
    if (!ident) return;
    var id = resolve(ident);
    if (id === null) {
      $("status").textContent = "No entity or event named " + ident;
      return;
    }
    setFocus(id, params.get("depth") || meta.depth || 1);
  }

  buildLegend();
  wire();
  draw();
  initialFocus();

  return {
    data: data, timings: timings, search: search, resolve: resolve, setFocus: setFocus,
    clearFocus: clearFocus, selectNode: selectNode,
    state: function () {
      return {
        focus: focus && { id: focus.id, depth: focus.depth, size: focus.members.size },
        hiddenFamilies: Array.from(hiddenFamilies),
        visible: data.nodes.filter(function (n) { return !hiddenNow.get(n.id); }).map(function (n) { return n.id; })
      };
    }
  };
})();
