  /* The network view's script, in modules by concept (viz/html.py joins them, in this order, in
   * one function: they share its variables):
   *   data.js     the data blocks, the index of nodes and edges, the vis items
   *   layout.js   placing the nodes Python did not place
   *   drawing.js  what is drawn, labels by importance, the network and its clicks
   *   panels.js   the side panel: details, timeline, figures
   *   fetch.js    what the server sends on demand: neighbours, searches, selections
   *   search.js   search, focus, shareable URLs
   *   legend.js   the legend: colours, shapes, layers
   *   start.js    wiring and the first state; what `kgView` offers
   *
   * It reads the first JSON data block (what the first frame draws), draws the
   * story first (people,
   * organizations and places, and entities of the corpus's own types, linked when a statement
   * relates them or they share an event; each node coloured by its legend entry, each edge by its
   * relation type); events, quotes, figures and dates are layers. Node positions come from
   * Python; this script decides what is drawn, which labels fit without covering
   * another node, and wires search, layers, focus, the timeline, the figures table
   * and the details panel. The rest of the data (every other node and edge, details,
   * timeline, figures, sentences) is read from the second block, gzipped when large, once
   * the first frame is drawn; what needs it waits for it (`kgView.ready`). Nodes Python did
   * not place are placed when first drawn, around the node that brought them in, on the
   * nearest spot where they cover no drawn node. Text from the corpus reaches the DOM only through
   * textContent (and vis tooltips, which use innerText). `network` is global, as in
   * pyvis pages; `kgView` exposes the view's state and actions to scripts and tests. */
  var FONT = 14;
  var FONT_FACE = "system-ui, sans-serif";
  var EDGE_LABELS_MAX = 60; /* draw every edge label only when this few edges are drawn */
  var LAYER_NAMES = { Event: "events", Quote: "quotes", Figure: "figures", Date: "dates" };
  var timings = { start: performance.now() };
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var meta = data.meta;
  var STYLE = new Map(data.legend.map(function (l) { return [l.family, l]; }));
  var ids = [];                /* node number -> id */
  var nodeById = new Map();
  var edgeById = new Map();
  var adjacency = new Map();   /* node id -> ids of its edges */
  var loaded = false;          /* the second data block is read */
  var pending = [];            /* actions waiting for it */
  var readyResolve;
  var ready = new Promise(function (resolve) { readyResolve = resolve; });
  ["relations", "timeline", "figures", "sentences", "docs"].forEach(function (k) { data[k] = []; });
  data.nodeDetails = {};
  take(data);
  var shownFamilies = new Set(data.legend.filter(function (l) { return !l.layer || (l.family === "Event" && meta.showEvents); })
    .map(function (l) { return l.family; }));
  var showIsolated = meta.linked === 0; /* no actor is linked (a corpus with no relations): show them all */
  var hiddenRelations = new Set(); /* entries of data.relationLegend whose edges a visitor hid */
  var expanded = meta.initial ? new Set(meta.initial) : null; /* null: every actor */
  var focus = null;   /* {id, depth, members: Set, day} */
  var selected = null;
  var labelled = new Map(); /* node id -> label drawn ("" when hidden) */
  var fontSize = FONT;
  var nodes = new vis.DataSet();
  var edges = new vis.DataSet();
  var measure = document.createElement("canvas").getContext("2d");
  var changes = 0;        /* changes to what is drawn (items, labels, view) ... */
  var drawnChanges = -1;  /* ... and how many of them the last frame drawn shows */
  var drawnWaiters = [];
  nodes.on("*", changed);
  edges.on("*", changed);
  timings.parsed = performance.now();

  /* What vis-network reports of a node (its box, its label) is worked out when a frame is drawn,
   * which happens at the next animation frame after a change: `drawn()` settles once a frame shows
   * every change made so far, and #network's data-drawn says whether it does. */
  function changed() {
    changes++;
    $("network").dataset.drawn = "false";
  }

  function onDrawn() {
    drawnChanges = changes;
    $("network").dataset.drawn = "true";
    drawnWaiters.splice(0).forEach(function (resolve) { resolve(true); });
  }

  function drawn() {
    return new Promise(function (resolve) {
      if (drawnChanges === changes) resolve(true); else drawnWaiters.push(resolve);
    });
  }

  var $ = function (id) { return document.getElementById(id); };

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  /* Accents and case stripped as kg.model.iris.fold strips them: only the marks that are accents
     (Latin, Greek and Cyrillic diacritics, Hebrew points, Arabic harakat); a Devanagari vowel sign
     or a kana voicing mark is part of its letter. */
  var ACCENTS = /[\u0300-\u036f\u0483-\u0487\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
  function fold(text) {
    return String(text).normalize("NFKD").replace(ACCENTS, "").normalize("NFC").toLowerCase().replace(/ß/g, "ss");
  }

  /* Index a data block's nodes and edges. Edges and relations name their nodes by number (the
   * second block's nodes are numbered on from the first's); the page uses ids. */
  function take(block) {
    var layers = new Set(meta.layers);
    block.nodes.forEach(function (n) {
      n.layer = layers.has(n.family) ? n.family : null;
      ids.push(n.id);
      nodeById.set(n.id, n);
      adjacency.set(n.id, []);
    });
    block.edges.forEach(function (e) {
      e.from = ids[e.from];
      e.to = ids[e.to];
      e.eventNumbers = e.events || [];
      edgeById.set(e.id, e);
      adjacency.get(e.from).push(e.id);
      if (e.to !== e.from) adjacency.get(e.to).push(e.id);
    });
    (block.relations || []).forEach(function (r) { r.from = ids[r.from]; r.to = ids[r.to]; });
    /* A first-block link may rest on events of the second block. */
    edgeById.forEach(function (e) {
      if (!e.eventNumbers) return;
      e.events = e.eventNumbers.map(function (i) { return ids[i]; });
      if (e.events.every(Boolean)) delete e.eventNumbers;
    });
  }

  /* The second data block: plain JSON, or gzipped JSON in base64 (read with DecompressionStream). */
  function readMore() {
    var block = document.getElementById("kg-more");
    if (block.dataset.encoding !== "gzip") return Promise.resolve(JSON.parse(block.textContent));
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser cannot read the page's compressed data (DecompressionStream)"));
    }
    var binary = atob(block.textContent);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  function loadMore() {
    return readMore().then(function (more) {
      timings.read = performance.now();
      take(more);
      data.nodes = data.nodes.concat(more.nodes);
      data.edges = data.edges.concat(more.edges);
      ["relations", "nodeDetails", "timeline", "figures", "sentences", "docs"].forEach(function (k) { data[k] = more[k]; });
      loaded = true;
      apply();
      initialFocus(params);
      pending.splice(0).forEach(function (run) { run(); });
      if ($("search").value.trim()) showResults();
      timings.ready = performance.now();
      readyResolve(true);
    }).catch(function (err) {
      $("status").textContent = "Only the first view could be drawn: " + err.message;
      timings.failed = String(err);
      throw err;
    });
  }

  /* `fn`, run now when every node is known, else once the second data block is read. */
  function later(fn) {
    return function () {
      var self = this, args = arguments;
      if (loaded) return fn.apply(self, args);
      pending.push(function () { fn.apply(self, args); });
    };
  }

  /* The vis-network item of a node: colour and shape of its kind, a dashed white shape for a
   * speculated or negated event, and a plain-text tooltip. */
  function nodeItem(n) {
    var style = STYLE.get(n.family);
    var fill = n.tint === undefined ? style.color : data.eventLegend[n.tint].color; /* an event: its kind's */
    var item = { id: n.id, family: n.family, x: n.x, y: n.y, size: n.size, label: "", shape: style.shape, borderWidth: 1,
                 color: { background: fill, border: "#333333",
                          highlight: { background: fill, border: "#000000" },
                          hover: { background: fill, border: "#000000" } } };
    if (n.uncertain) {
      item.borderWidth = 2;
      item.shapeProperties = { borderDashes: [4, 3] };
      item.color.background = item.color.highlight.background = item.color.hover.background = "#ffffff";
    }
    item.title = label(n.id) + "\n" + (n.type || style.label) + (n.uncertain ? " (" + n.uncertain + ")" : "") +
      " · " + plural(n.mentions, "mention") + (n.layer ? "" : " · linked to " + plural(n.links, "entity", "entities"));
    return item;
  }

  function edgeItem(e) {
    var colour = data.relationLegend[e.rel].color;
    var item = { id: e.id, from: e.from, to: e.to, label: "", text: e.text, kind: e.kind,
                 color: { color: colour, highlight: "#222222", hover: "#555555" },
                 arrows: { to: { enabled: !!e.arrow } } };
    if (e.kind === "link") {
      item.width = Math.min(1 + e.weight / 2, 6);
      var why = [];
      if (e.relations.length) why.push(plural(e.relations.length, "statement"));
      if (e.events.length) why.push(plural(e.events.length, "shared event"));
      item.title = label(e.from) + " — " + label(e.to) + "\n" + e.text + "\n" + why.join(", ");
    } else {
      item.title = label(e.from) + " — " + e.text + " → " + label(e.to);
    }
    if (e.dashes) item.dashes = [6, 4];
    return item;
  }

  function plural(n, word, words) { return n.toLocaleString("en") + " " + (n === 1 ? word : words || word + "s"); }

  function otherEnd(edge, id) { return edge.from === id ? edge.to : edge.from; }
  function isActor(id) { return !nodeById.get(id).layer; }
  function label(id) { var n = nodeById.get(id); return n.name || n.label; }
