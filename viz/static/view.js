/* The network view: reads the first JSON data block (what the first frame draws), draws the
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
var network = null;
var kgView = (function () {
  "use strict";
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
  var shownFamilies = new Set(data.legend.filter(function (l) { return !l.layer; }).map(function (l) { return l.family; }));
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
      " · " + plural(n.mentions, "mention") + (n.layer ? "" : " · linked to " + plural(n.links, "actor"));
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

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function otherEnd(edge, id) { return edge.from === id ? edge.to : edge.from; }
  function isActor(id) { return !nodeById.get(id).layer; }
  function label(id) { var n = nodeById.get(id); return n.name || n.label; }

  /* ---- what is drawn -------------------------------------------------------- */

  /* Nodes a visitor asked for: shown families (layers), the expanded actors of a large
   * graph (and layer nodes next to them), the focus; then nodes left without any drawn
   * edge are dropped unless "unconnected" is ticked. */
  function wanted() {
    var keep = new Set();
    data.nodes.forEach(function (n) {
      if (!shownFamilies.has(n.family)) return;
      if (focus !== null && !focus.members.has(n.id)) return;
      if (expanded !== null && focus === null && !nearExpanded(n.id)) return;
      keep.add(n.id);
    });
    if (focus !== null) focus.roots.forEach(function (id) { keep.add(id); });
    if (selected !== null && nodeById.has(selected)) keep.add(selected);
    /* A large graph draws each actor's strongest links only, and every link of the selected node. */
    var sparse = expanded !== null && focus === null;
    var drawnEdges = data.edges.filter(function (e) {
      if (!keep.has(e.from) || !keep.has(e.to) || e.from === e.to || hiddenRelations.has(e.rel)) return false;
      return !sparse || e.kind !== "link" || e.strong || e.from === selected || e.to === selected;
    });
    if (!showIsolated) {
      var touched = new Set();
      drawnEdges.forEach(function (e) { touched.add(e.from); touched.add(e.to); });
      keep.forEach(function (id) {
        var pinned = id === selected || (focus !== null && focus.roots.has(id));
        if (!touched.has(id) && !pinned) keep.delete(id);
      });
    }
    return { nodes: keep, edges: drawnEdges };
  }

  function nearExpanded(id) {
    if (expanded.has(id)) return true;
    if (isActor(id)) return false;
    return adjacency.get(id).some(function (eid) { return expanded.has(otherEnd(edgeById.get(eid), id)); });
  }

  /* Draw what `wanted` says; nodes with no place yet are placed around `anchor` (the node whose
   * click or focus brings them in) or the drawn nodes they link to. */
  function apply(anchor) {
    var want = wanted();
    var removeNodes = nodes.getIds().filter(function (id) { return !want.nodes.has(id); });
    var addNodes = [];
    want.nodes.forEach(function (id) { if (!nodes.get(id)) addNodes.push(id); });
    var wantEdges = new Set(want.edges.map(function (e) { return e.id; }));
    var removeEdges = edges.getIds().filter(function (id) { return !wantEdges.has(id); });
    edges.remove(removeEdges);
    nodes.remove(removeNodes);
    removeNodes.forEach(function (id) { labelled.delete(id); forgetPlace(nodeById.get(id)); });
    var unplaced = addNodes.filter(function (id) { return nodeById.get(id).x === undefined; });
    if (unplaced.length) placeNodes(unplaced, want, anchor);
    nodes.add(addNodes.map(function (id) { return nodeItem(nodeById.get(id)); }));
    edges.add(want.edges.filter(function (e) { return !edges.get(e.id); }).map(edgeItem));
    placeLabels();
    edgeLabels();
    counts(want);
  }

  /* ---- placing the nodes Python did not place ----------------------------------- */

  var GAP = 8;       /* canvas pixels kept free around a placed node */
  var RINGS = 400;   /* rings tried around a point before giving up on a free spot */

  /* Boxes {left, right, top, bottom} on a grid of cells, to ask what a box would cover. */
  function BoxGrid(cell) {
    this.cell = cell;
    this.cells = new Map();
  }
  BoxGrid.prototype.keys = function (box, fn) {
    var c = this.cell;
    for (var cx = Math.floor(box.left / c); cx <= Math.floor(box.right / c); cx++)
      for (var cy = Math.floor(box.top / c); cy <= Math.floor(box.bottom / c); cy++) fn(cx + ":" + cy);
  };
  BoxGrid.prototype.put = function (id, box, x, y) {
    var cells = this.cells;
    this.keys(box, function (k) { if (!cells.has(k)) cells.set(k, []); cells.get(k).push([id, box, x, y]); });
  };
  /* The distance from (x, y) to the nearest centre put within `reach` of it (`reach` when none is). */
  BoxGrid.prototype.clearance = function (x, y, reach) {
    var cells = this.cells, best = reach;
    this.keys({ left: x - reach, right: x + reach, top: y - reach, bottom: y + reach }, function (k) {
      (cells.get(k) || []).forEach(function (entry) { best = Math.min(best, Math.hypot(entry[2] - x, entry[3] - y)); });
    });
    return best;
  };
  /* True when `box` meets no box of the grid but `self`'s. */
  BoxGrid.prototype.free = function (box, self) {
    var cells = this.cells, free = true;
    this.keys(box, function (k) {
      if (!free || !cells.has(k)) return;
      cells.get(k).forEach(function (entry) { if (free && entry[0] !== self && hit(box, entry[1])) free = false; });
    });
    return free;
  };

  /* The room a node takes around its centre: its shape, and under an actor's shape room for its
   * label as drawn at zoom 1 (where selecting a node brings the view). */
  function roomOf(n) {
    var s = n.size + GAP / 2;
    if (n.layer) return { left: s, right: s, top: s, bottom: s };
    if (n.labelHalf === undefined) {
      measure.font = FONT + "px " + FONT_FACE;
      n.labelHalf = measure.measureText(n.label).width / 2 + GAP / 2;
    }
    var half = Math.max(s, n.labelHalf);
    return { left: half, right: half, top: s, bottom: s + FONT + 2 };
  }

  function boxAt(room, x, y) {
    return { left: x - room.left, right: x + room.right, top: y - room.top, bottom: y + room.bottom };
  }

  function forgetPlace(n) {
    if (n && n.placed) { delete n.x; delete n.y; n.placed = false; }
  }

  /* Place `ids` (wanted, not placed yet) among the wanted nodes that have a place: the anchor
   * first, then breadth-first, each on the nearest free spot on rings around the anchor (for
   * the anchor's neighbours) or the middle of its placed neighbours. */
  function placeNodes(ids, want, anchor) {
    var grid = new BoxGrid(160);
    var near = new Map();
    want.edges.forEach(function (e) {
      if (!near.has(e.from)) near.set(e.from, []);
      if (!near.has(e.to)) near.set(e.to, []);
      near.get(e.from).push(e.to);
      near.get(e.to).push(e.from);
    });
    var placedXs = [], placedYs = [];
    want.nodes.forEach(function (id) {
      var n = nodeById.get(id);
      if (n.x === undefined) return;
      grid.put(id, boxAt(roomOf(n), n.x, n.y), n.x, n.y);
      placedXs.push(n.x);
      placedYs.push(n.y);
    });
    var middle = placedXs.length ? { x: median(placedXs), y: median(placedYs) } : { x: 0, y: 0 };
    var todo = ids.slice().sort(function (a, b) { return nodeById.get(b).rank - nodeById.get(a).rank; });
    var anchorNode = anchor !== undefined && anchor !== null ? nodeById.get(anchor) : null;
    if (anchorNode && todo.indexOf(anchor) >= 0) {
      todo.splice(todo.indexOf(anchor), 1);
      todo.unshift(anchor);
    }
    var firstRing = new Map();
    while (todo.length) {
      var ready = todo.filter(function (id) { return id === anchor || placedNeighbours(id, near).length; });
      if (!ready.length) ready = [todo[0]];
      ready.forEach(function (id) {
        var n = nodeById.get(id);
        var centre = centreOf(id, near, anchorNode, middle);
        var spot = freeSpot(grid, n, centre, firstRing);
        n.x = spot.x;
        n.y = spot.y;
        n.placed = true;
        grid.put(id, boxAt(roomOf(n), n.x, n.y), n.x, n.y);
      });
      todo = todo.filter(function (id) { return ready.indexOf(id) < 0; });
    }
  }

  function median(values) {
    var sorted = values.slice().sort(function (a, b) { return a - b; });
    return sorted[Math.floor(sorted.length / 2)];
  }

  function placedNeighbours(id, near) {
    return (near.get(id) || []).filter(function (m) { return nodeById.get(m).x !== undefined; });
  }

  function centreOf(id, near, anchorNode, middle) {
    var around = placedNeighbours(id, near);
    if (anchorNode && anchorNode.x !== undefined && (id === anchorNode.id || around.indexOf(anchorNode.id) >= 0)) {
      return { x: anchorNode.x, y: anchorNode.y };
    }
    if (!around.length) return anchorNode && anchorNode.x !== undefined ? { x: anchorNode.x, y: anchorNode.y } : middle;
    var x = 0, y = 0;
    around.forEach(function (m) { x += nodeById.get(m).x; y += nodeById.get(m).y; });
    return { x: x / around.length, y: y / around.length };
  }

  /* A spot on the first ring around `centre` (rings a box apart, each turned so that rings do
   * not line up) where the node's room is free: of that ring's free spots, the one farthest from
   * any other placed node, so that the node is seen next to its centre rather than next to a
   * stranger. Rings already full for this centre are skipped. */
  function freeSpot(grid, n, centre, firstRing) {
    var room = roomOf(n);
    var step = Math.max(room.right + room.left, room.bottom + room.top) * 0.75;
    var key = Math.round(centre.x) + ":" + Math.round(centre.y);
    for (var ring = firstRing.get(key) || 0; ring < RINGS; ring++) {
      var count = ring ? Math.max(6, Math.floor(2 * Math.PI * ring)) : 1;
      var best = null;
      for (var k = 0; k < count; k++) {
        var angle = 2 * Math.PI * (k + 0.618 * ring) / count;
        var x = centre.x + ring * step * Math.cos(angle), y = centre.y + ring * step * Math.sin(angle);
        if (!grid.free(boxAt(room, x, y), n.id)) continue;
        var clear = grid.clearance(x, y, 2 * step);
        if (best === null || clear > best.clear) best = { x: x, y: y, clear: clear };
      }
      if (best !== null) { firstRing.set(key, ring); return { x: best.x, y: best.y }; }
    }
    return { x: centre.x, y: centre.y + RINGS * step };
  }

  function counts(want) {
    var actors = 0, layer = 0;
    want.nodes.forEach(function (id) { if (isActor(id)) actors++; else layer++; });
    var links = want.edges.filter(function (e) { return e.kind === "link"; }).length;
    var text = plural(actors, "actor") + " · " + plural(links, "link") +
      (layer ? " · " + plural(layer, "other node") : "") + " drawn · " + meta.nodes.toLocaleString("en") + " nodes in the page";
    $("counts").textContent = text;
    var notes = [];
    if (focus) notes.push("Focus: " + (focus.day ? focus.day : label(focus.id)) + " and what it links to");
    if (expanded !== null && !focus) {
      notes.push("The " + meta.initial.length + (meta.linked ? " best-connected actors; click one to add its neighbours, or search"
                                                               : " most mentioned actors; search finds the others"));
    }
    if (!showIsolated && meta.actors > meta.linked && !focus) notes.push(plural(meta.actors - meta.linked, "actor") + " with no link hidden");
    if (!meta.nodes) notes.push("Nothing to draw: the graph has no entity, event, date, figure or quote");
    $("status").textContent = notes.join(" · ");
  }

  /* ---- labels: by importance, never covering another node or label ------------- */

  function shapeBox(n) {
    var s = n.size;
    return { left: n.x - s, right: n.x + s, top: n.y - s, bottom: n.y + s };
  }

  /* The box vis-network reports for a node and its label (drawn under the shape). */
  function withLabel(n, text) {
    var box = shapeBox(n);
    if (!text) return box;
    var half = measure.measureText(text).width / 2 + 1;
    return { left: Math.min(box.left, n.x - half), right: Math.max(box.right, n.x + half),
             top: box.top, bottom: box.bottom + fontSize + 1 };
  }

  function hit(a, b) { return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }

  /* Greedy: the most important nodes first; a label is drawn when its node-and-label box
   * meets no other drawn node's box (the selected node's label always is). A uniform grid
   * keeps it near-linear. */
  function placeLabels() {
    measure.font = fontSize + "px " + FONT_FACE;
    var ids = nodes.getIds();
    var cell = 160;
    var grid = new Map();
    var boxes = new Map();
    function cells(box, fn) {
      for (var cx = Math.floor(box.left / cell); cx <= Math.floor(box.right / cell); cx++)
        for (var cy = Math.floor(box.top / cell); cy <= Math.floor(box.bottom / cell); cy++) fn(cx + ":" + cy);
    }
    function put(id, box) {
      boxes.set(id, box);
      cells(box, function (k) { if (!grid.has(k)) grid.set(k, new Set()); grid.get(k).add(id); });
    }
    ids.forEach(function (id) { put(id, shapeBox(nodeById.get(id))); });
    var order = ids.slice().sort(function (a, b) {
      return priority(b) - priority(a) || (a < b ? -1 : 1);
    });
    var updates = [];
    order.forEach(function (id) {
      var n = nodeById.get(id);
      var text = n.label;
      if (id === selected) measure.font = "bold " + fontSize + "px " + FONT_FACE;  /* vis draws it bold */
      var box = withLabel(n, text);
      if (id === selected) measure.font = fontSize + "px " + FONT_FACE;
      var free = true;
      if (id !== selected) cells(box, function (k) {
        if (!free || !grid.has(k)) return;
        grid.get(k).forEach(function (other) { if (free && other !== id && hit(box, boxes.get(other))) free = false; });
      });
      var shown = free ? text : "";
      if (free) put(id, box);
      var key = shown;
      if (labelled.get(id) !== key) updates.push({ id: id, label: shown, font: { size: fontSize } });
      labelled.set(id, key);
    });
    if (updates.length) nodes.update(updates);
  }

  function priority(id) {
    var n = nodeById.get(id);
    var boost = id === selected ? 1e9 : (focus && focus.roots.has(id) ? 1e8 : 0);
    return boost + n.rank;
  }

  function edgeLabels() {
    var few = edges.length <= EDGE_LABELS_MAX;
    var updates = [];
    edges.forEach(function (e) {
      var show = few || (selected !== null && (e.from === selected || e.to === selected));
      var want = show ? e.text : "";
      if ((e.label || "") !== want) updates.push({ id: e.id, label: want });
    });
    if (updates.length) edges.update(updates);
  }

  /* Labels keep about the same size on screen: FONT px at any zoom (at most 8 times larger
   * on the canvas when zoomed out), so zooming in makes room for more of them. */
  function onZoom() {
    var scale = network.getScale();
    var size = Math.min(Math.max(FONT / scale, 3), FONT * 8);
    if (Math.abs(size - fontSize) < 0.05) return;
    fontSize = size;
    labelled.clear();
    placeLabels();
  }

  /* ---- drawing ------------------------------------------------------------ */

  function draw() {
    apply();
    timings.applied = performance.now();
    network = new vis.Network($("network"), { nodes: nodes, edges: edges }, data.options);
    fitDrawn();
    timings.created = performance.now();
    network.on("afterDrawing", onDrawn);
    network.once("afterDrawing", function () {
      timings.firstDraw = performance.now();
      setTimeout(function () {
        if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", loadMore);
        else loadMore();
      }, 0);
    });
    network.on("click", onClick);
    var zoomTimer = null;
    network.on("zoom", function () { clearTimeout(zoomTimer); zoomTimer = setTimeout(onZoom, 120); });
    window.addEventListener("resize", function () { network.redraw(); });
  }

  var onClick = later(function (params) {
    if (params.nodes.length) {
      var id = params.nodes[0];
      if (expanded !== null && isActor(id)) expand(id);
      showNode(id);
      fetchNeighbours(id);
    } else if (params.edges.length) showEdge(params.edges[0]);
    else closePanel();
  });

  /* Add an actor's linked actors to a large graph's drawing, laid out around it. */
  function expand(id) {
    var before = expanded.size;
    expanded.add(id);
    adjacency.get(id).forEach(function (eid) {
      var e = edgeById.get(eid);
      if (e.kind === "link") expanded.add(otherEnd(e, id));
    });
    if (expanded.size !== before) apply(id);
  }

  /* ---- the side panel: details, timeline, figures -------------------------- */

  /* The canvas makes room for the panel, so that the selected node is not drawn under it. */
  function panelShown(open) {
    $("panel").hidden = !open;
    if (document.body.classList.contains("panel-open") === open) return;
    document.body.classList.toggle("panel-open", open);
    if (network) network.redraw();
  }

  var openTab = later(function (name) {
    panelShown(true);
    ["details", "timeline", "figures"].forEach(function (t) {
      $("tab-" + t).setAttribute("aria-selected", String(t === name));
      $(t + "-body").hidden = t !== name;
    });
    if (name === "timeline" && !$("timeline-body").firstChild) buildTimeline();
    if (name === "figures" && !$("figures-body").firstChild) buildFigures();
  });

  function openDetails() {
    var body = clear($("panel-body"));
    delete body.dataset.node;
    delete body.dataset.edge;
    openTab("details");
    return body;
  }

  function closePanel() {
    panelShown(false);
    if (selected !== null) { selected = null; apply(); }
    $("focus-btn").disabled = true;
  }

  function nodeLink(id) {
    var button = el("button", label(id), "link");
    button.type = "button";
    button.dataset.node = id;
    button.addEventListener("click", function () { selectNode(id); });
    return button;
  }

  function docLine(doc) {
    return [doc.title, doc.publisher, doc.date].filter(Boolean).join(" — ");
  }

  /* An article as "publisher, date" (its title when it names no publisher). */
  function shortDoc(doc) {
    return doc.publisher ? [doc.publisher, doc.date].filter(Boolean).join(", ") : docLine(doc);
  }

  var QUALIFIERS = { MoreThan: "more than", Nearly: "nearly", About: "about", Exactly: "exactly",
                     UpTo: "up to", LessThan: "less than" };

  function number(value) {
    var n = Number(value);
    return value === "" || isNaN(n) ? value : n.toLocaleString("en");
  }

  function sources(indices) {
    var list = el("ul", null, "sources");
    indices.forEach(function (i) {
      var sentence = data.sentences[i];
      var doc = data.docs[sentence.doc] || { title: "unknown document" };
      var item = el("li");
      item.appendChild(el("blockquote", sentence.text));
      item.appendChild(el("cite", docLine(doc)));
      list.appendChild(item);
    });
    return list;
  }

  function showNode(id) {
    var d = data.nodeDetails[id];
    if (!d) return;
    selected = id;
    $("focus-btn").disabled = false;
    var body = openDetails();
    body.dataset.node = id;
    body.appendChild(el("h2", d.label));
    body.appendChild(el("div", d.types.join(" · "), "types"));
    if (d.uncertain) body.appendChild(el("div", "This event is " + d.uncertain + " in the text: not a fact.", "uncertain"));
    if (d.family === "Group") body.appendChild(groupNote(d));
    body.appendChild(el("div", id, "iri"));
    if (d.alt.length) {
      body.appendChild(el("h3", "Also known as"));
      body.appendChild(el("div", d.alt.join(", "), "alt"));
    }
    var facts = d.facts.slice();
    if (d.mentions) facts.unshift(["mentions", d.mentions]);
    if (facts.length || d.wikidata.length) body.appendChild(factList(facts, d.wikidata));
    if (!nodeById.get(id).layer) body.appendChild(linkList(id));
    body.appendChild(relationList(id));
    if (d.sentences.length) {
      var mentioned = el("details");
      mentioned.appendChild(el("summary", "Mentioned in " + plural(d.sentences.length, "sentence")));
      mentioned.appendChild(sources(d.sentences));
      body.appendChild(mentioned);
    }
    apply();
  }

  /* A group is local to its article: say which, and that another article's group is other people. */
  function groupNote(d) {
    var articles = [];
    d.sentences.forEach(function (i) {
      var doc = data.docs[data.sentences[i].doc];
      if (doc && articles.indexOf(doc) < 0) articles.push(doc);
    });
    var where = articles.length ? " in " + articles.map(shortDoc).join("; ") : "";
    return el("div", "Several people spoken of together" + where + ". A group of the same name in another " +
      "article is not said to be the same people.", "group-note");
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

  /* The actors this one is linked to, and why (opens the link's panel). */
  function linkList(id) {
    var wrap = el("section", null, "links");
    var ids = adjacency.get(id).filter(function (eid) { return edgeById.get(eid).kind === "link"; });
    wrap.appendChild(el("h3", "Linked to " + plural(ids.length, "actor")));
    var list = el("ul");
    ids.forEach(function (eid) {
      var e = edgeById.get(eid);
      var item = el("li", null, "link-item");
      item.dataset.edge = eid;
      item.appendChild(nodeLink(otherEnd(e, id)));
      var why = el("button", e.text, "link why");
      why.type = "button";
      why.addEventListener("click", function () { showEdge(eid); });
      item.appendChild(el("span", " · "));
      item.appendChild(why);
      list.appendChild(item);
    });
    wrap.appendChild(list);
    return wrap;
  }

  function relationItem(rel, id) {
    var item = el("li", null, "relation");
    var outgoing = rel.from === id;
    item.appendChild(el("span", (outgoing ? "→ " : "← ") + rel.label + ": ", "predicate"));
    var other = outgoing ? rel.to : rel.from;
    item.appendChild(nodeLink(other));
    var doubt = data.nodeDetails[other].uncertain;
    if (doubt) item.appendChild(el("span", " (" + doubt + ")", "uncertain-tag"));
    item.appendChild(rel.sentences.length ? sources(rel.sentences) : el("div", "no source sentence", "muted"));
    return item;
  }

  function relationList(id) {
    var wrap = el("section", null, "relations");
    var rels = data.nodeDetails[id].relations;
    wrap.appendChild(el("h3", "Relations (" + rels.length + ")"));
    var list = el("ul");
    rels.forEach(function (i) { list.appendChild(relationItem(data.relations[i], id)); });
    wrap.appendChild(list);
    return wrap;
  }

  function showEdge(eid) {
    var e = edgeById.get(eid);
    if (!e) return;
    $("focus-btn").disabled = true;
    var body = openDetails();
    body.dataset.edge = eid;
    var title = el("h2");
    title.appendChild(nodeLink(e.from));
    title.appendChild(el("span", e.kind === "link" ? " — " : " → " + e.text + " → "));
    title.appendChild(nodeLink(e.to));
    body.appendChild(title);
    if (e.kind === "link") body.appendChild(el("div", e.text, "types"));
    var stated = e.relations.map(function (i) { return data.relations[i]; });
    var count = stated.reduce(function (n, r) { return n + r.sentences.length; }, 0);
    if (stated.length) {
      body.appendChild(el("h3", e.kind === "link" ? "Stated relations" : "Stated in " + plural(count, "sentence")));
      var list = el("ul");
      stated.forEach(function (r) {
        var item = el("li", null, "relation");
        item.appendChild(el("span", label(r.from) + " → " + r.label + " → " + label(r.to), "predicate"));
        item.appendChild(sources(r.sentences));
        list.appendChild(item);
      });
      body.appendChild(list);
    }
    if (e.kind === "link" && e.events.length) {
      body.appendChild(el("h3", "Both take part in " + plural(e.events.length, "event")));
      var events = el("ul");
      e.events.forEach(function (ev) {
        var item = el("li", null, "shared-event");
        item.appendChild(nodeLink(ev));
        var d = data.nodeDetails[ev];
        var note = [d.types[0], d.date, d.uncertain].filter(Boolean).join(" · ");
        item.appendChild(el("span", " " + note, d.uncertain ? "uncertain-tag" : "muted"));
        var said = new Set();
        d.relations.forEach(function (i) {
          var r = data.relations[i];
          if (r.from === ev && (r.to === e.from || r.to === e.to)) r.sentences.forEach(function (s) { said.add(s); });
        });
        item.appendChild(sources(Array.from(said).sort(function (a, b) { return a - b; })));
        events.appendChild(item);
      });
      body.appendChild(events);
    }
  }

  var selectNode = later(function (id) {
    if (!nodeById.has(id)) return;
    var n = nodeById.get(id);
    if (!shownFamilies.has(n.family)) { shownFamilies.add(n.family); syncLegend(); }
    if (focus && !focus.members.has(id)) clearFocus();
    if (expanded !== null && !n.layer) expand(id);
    showNode(id);
    network.selectNodes([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 1.0), animation: false });
    changed();
    onZoom();  /* a zoom by script fires no zoom event: fit the labels to the new scale */
    setUrl();
    fetchNeighbours(id);
  });

  /* ---- neighbours on demand, from the server that serves the page ---------------- */

  /* A page served by `kg serve` (over http) that holds only part of a large graph fetches a
   * clicked node's neighbours from /graph/neighbours when the node has some outside the page
   * (`outside`), merges them in and lays them out around it. A file: page never fetches. */
  var NEIGHBOURS = /^https?:$/.test(window.location.protocol) ? new URL("graph/neighbours", window.location.href) : null;
  var asked = new Set();   /* nodes whose neighbours were fetched or are being fetched */
  var fetching = [];       /* fetches under way */
  var merges = 0;

  function fetchNeighbours(id) {
    var n = nodeById.get(id);
    if (NEIGHBOURS === null || !n || !n.outside || asked.has(id)) return;
    asked.add(id);
    var url = new URL(NEIGHBOURS.href);
    url.searchParams.set("node", id);
    $("status").textContent = "Fetching the neighbours of " + label(id) + "…";
    var done = fetch(url.href, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("the server answered " + response.status);
        return response.json();
      })
      .then(function (block) {
        merge(block);
        if (expanded !== null && isActor(id)) expand(id);
        apply(id);
        if (selected === id) showNode(id);
      })
      .catch(function (err) {
        asked.delete(id);
        $("status").textContent = "Could not fetch the neighbours of " + label(id) + ": " + err.message;
      });
    fetching.push(done);
    done.then(function () { fetching.splice(fetching.indexOf(done), 1); });
  }

  /* Settles when no fetch is under way. */
  function idle() {
    return Promise.all(fetching.slice()).then(function () { return fetching.length ? idle() : true; });
  }

  /* Add a fetched block (nodes, edges, relations, details, sentences, documents numbered within
   * it) to the page's data: nodes and edges it already has are kept as they are. */
  function merge(block) {
    merges++;
    var local = block.nodes.map(function (n) { return n.id; });
    var known = new Set(local.filter(function (id) { return nodeById.has(id); }));
    var docBase = data.docs.length, sentenceBase = data.sentences.length, relationBase = data.relations.length;
    var layers = new Set(meta.layers);
    block.docs.forEach(function (d) { data.docs.push(d); });
    block.sentences.forEach(function (s) { data.sentences.push({ text: s.text, doc: s.doc < 0 ? -1 : s.doc + docBase }); });
    block.relations.forEach(function (r, i) {
      var from = local[r.from], to = local[r.to];
      data.relations.push({ from: from, to: to, predicate: r.predicate, label: r.label,
                            sentences: r.sentences.map(function (k) { return k + sentenceBase; }) });
      if (known.has(from) && known.has(to)) return;  /* a relation the page already lists */
      [from, to].forEach(function (end) { if (known.has(end)) data.nodeDetails[end].relations.push(relationBase + i); });
    });
    block.nodes.forEach(function (n) {
      if (known.has(n.id)) return;
      n.layer = layers.has(n.family) ? n.family : null;
      ids.push(n.id);
      nodeById.set(n.id, n);
      adjacency.set(n.id, []);
      data.nodes.push(n);
      var d = block.nodeDetails[n.id];
      d.relations = d.relations.map(function (k) { return k + relationBase; });
      d.sentences = d.sentences.map(function (k) { return k + sentenceBase; });
      data.nodeDetails[n.id] = d;
    });
    block.edges.forEach(function (e) {
      var from = local[e.from], to = local[e.to];
      var twin = adjacency.get(from).some(function (eid) {
        var o = edgeById.get(eid);
        return o.kind === e.kind && ((o.from === from && o.to === to) || (o.from === to && o.to === from));
      });
      if (twin) return;
      e.id = "m" + merges + e.id;
      e.from = from;
      e.to = to;
      e.events = (e.events || []).map(function (k) { return local[k]; });
      e.relations = e.relations.map(function (k) { return k + relationBase; });
      edgeById.set(e.id, e);
      adjacency.get(from).push(e.id);
      if (to !== from) adjacency.get(to).push(e.id);
      data.edges.push(e);
    });
    meta.nodes = data.nodes.length;
  }

  /* ---- timeline and figures -------------------------------------------------- */

  function buildTimeline() {
    var body = $("timeline-body");
    body.appendChild(el("p", "Dated events in order, grouped by the day (or month, or year) the text gives. " +
      "Click an event or a day to show who takes part.", "muted"));
    data.timeline.forEach(function (day) {
      var section = el("section", null, "day");
      section.dataset.date = day.date;
      var head = el("button", day.label + " (" + day.events.length + ")", "link day-head");
      head.type = "button";
      head.addEventListener("click", function () { focusDay(day.date); });
      var h3 = el("h3");
      h3.appendChild(head);
      section.appendChild(h3);
      var list = el("ul");
      day.events.forEach(function (ev) {
        var item = el("li", null, "tl-event" + (ev.uncertain ? " uncertain" : ""));
        item.dataset.node = ev.id;
        var button = el("button", ev.label, "link");
        button.type = "button";
        button.addEventListener("click", function () { focusNodes(ev.id, [ev.id]); });
        item.appendChild(button);
        item.appendChild(el("span", " " + ev.type + (ev.uncertain ? " · " + ev.uncertain : ""), ev.uncertain ? "uncertain-tag" : "muted"));
        var who = ev.participants.filter(function (p) { return nodeById.has(p); }).map(label);
        if (who.length) item.appendChild(el("div", who.join(", "), "who"));
        var from = el("div", "Sources: " + ev.docs.map(function (d) { return shortDoc(data.docs[d]); }).join("; "), "from");
        from.title = ev.docs.map(function (d) { return data.docs[d].title; }).join("\n");
        item.appendChild(from);
        list.appendChild(item);
      });
      section.appendChild(list);
      body.appendChild(section);
    });
  }

  function buildFigures() {
    var body = $("figures-body");
    body.appendChild(el("p", "Every reported figure, grouped by what it counts (the kind of event and the role it fills). " +
      "Each row is one claim: its own source, date and article.", "muted"));
    data.figures.forEach(function (group) {
      body.appendChild(el("h3", group.topic + " (" + group.rows.length + ")"));
      var table = el("table", null, "figures");
      var head = el("tr");
      ["figure", "counts", "source", "as of", "article"].forEach(function (h) { head.appendChild(el("th", h)); });
      table.appendChild(el("thead")).appendChild(head);
      var tbody = el("tbody");
      group.rows.forEach(function (row) {
        var tr = el("tr");
        tr.dataset.node = row.id;
        var what = el("td");
        var button = el("button", row.label, "link");
        button.type = "button";
        button.addEventListener("click", function () { selectNode(row.id); });
        what.appendChild(button);
        var detail = [QUALIFIERS[row.qualifier] || row.qualifier, number(row.value)].filter(Boolean).join(" ");
        if (detail) what.appendChild(el("div", detail, "muted value"));
        tr.appendChild(what);
        tr.appendChild(el("td", row.context, "context"));
        var source = el("td", null, "source");
        row.sources.forEach(function (s, i) { if (i) source.appendChild(el("span", ", ")); source.appendChild(nodeLink(s)); });
        if (!row.sources.length) source.appendChild(el("span", "not said", "muted"));
        tr.appendChild(source);
        tr.appendChild(el("td", row.date, "date"));
        var doc = data.docs[row.doc];
        tr.appendChild(el("td", doc ? shortDoc(doc) : "", "article"));
        if (doc) tr.lastChild.title = doc.title;
        tbody.appendChild(tr);
      });
      table.appendChild(tbody);
      body.appendChild(table);
    });
  }

  /* ---- search ----------------------------------------------------------------- */

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
      else rank = /[\p{L}\p{N}\p{M}]/u.test(key[at - 1]) ? 3 : 2;
      if (best === null || rank < best.rank || (rank === best.rank && key < best.key)) best = { rank: rank, key: key };
    });
    return best;
  }

  function search(query) {
    var q = fold(query).trim().split(/\s+/).join(" ");
    if (!q || !loaded) return [];
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
    var list = clear($("results"));
    var query = $("search").value;
    var hits = search(query);
    list.hidden = !query.trim();
    if (!query.trim()) return;
    if (!hits.length) list.appendChild(el("li", loaded ? "No match" : "Loading…", "muted"));
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

  /* ---- focus ---------------------------------------------------------------- */

  /* Everything within `depth` drawn-or-drawable edges of the roots (layers that are off are not crossed). */
  function neighbourhood(roots, depth) {
    var seen = new Set(roots);
    var frontier = roots.slice();
    for (var level = 0; level < depth && frontier.length; level++) {
      var next = [];
      frontier.forEach(function (n) {
        adjacency.get(n).forEach(function (eid) {
          var m = otherEnd(edgeById.get(eid), n);
          if (!seen.has(m) && (shownFamilies.has(nodeById.get(m).family) || roots.indexOf(n) >= 0 && nodeById.get(n).layer)) {
            seen.add(m);
            next.push(m);
          }
        });
      });
      frontier = next;
    }
    return seen;
  }

  var setFocus = later(function (id, depth) {
    depth = Math.max(0, Math.min(9, parseInt(depth, 10) || 0));
    focus = { id: id, depth: depth, roots: new Set([id]), members: neighbourhood([id], depth), day: null };
    $("depth").value = depth;
    $("unfocus-btn").hidden = false;
    apply(id);
    showNode(id);
    fitDrawn();
    network.selectNodes([id]);
    setUrl();
  });

  /* Focus on the participants of some events (a timeline entry or a whole day). */
  function focusNodes(id, events, day) {
    var members = neighbourhood(events, 1);
    events.forEach(function (ev) {
      adjacency.get(ev).forEach(function (eid) { members.add(otherEnd(edgeById.get(eid), ev)); });
    });
    focus = { id: id, depth: 1, roots: new Set(events), members: members, day: day || null };
    $("unfocus-btn").hidden = false;
    apply(id);
    fitDrawn();
    if (!day) { network.selectNodes([id]); selected = id; }
    markTimeline();
    setUrl();
  }

  function focusDay(value) {
    var day = data.timeline.find(function (d) { return d.date === value; });
    if (!day) { $("status").textContent = "No event dated " + value; return false; }
    focusNodes(day.events[0].id, day.events.map(function (e) { return e.id; }), day.label);
    focus.date = value;
    setUrl();
    return true;
  }

  function markTimeline() {
    Array.prototype.forEach.call($("timeline-body").querySelectorAll(".tl-event"), function (item) {
      item.classList.toggle("current", !!focus && focus.roots.has(item.dataset.node));
    });
  }

  function clearFocus() {
    focus = null;
    $("unfocus-btn").hidden = true;
    apply();
    markTimeline();
    fitDrawn();
    setUrl();
  }

  /* Fit what is drawn, zooming in no further than 1.2 (a few nodes stay small enough to be read together). */
  function fitDrawn() {
    network.fit({ nodes: nodes.getIds(), animation: false, maxZoomLevel: 1.2 });
    changed();
    onZoom();
  }

  /* ---- shareable URLs: ?focus=&depth=, ?layer=, ?date= ------------------------ */

  function setUrl() {
    try {
      var url = new URL(window.location.href);
      ["focus", "depth", "date", "layer"].forEach(function (k) { url.searchParams.delete(k); });
      if (focus && focus.date) url.searchParams.set("date", focus.date);
      else if (focus) { url.searchParams.set("focus", focus.id); url.searchParams.set("depth", focus.depth); }
      var layers = meta.layers.filter(function (f) { return shownFamilies.has(f); }).map(function (f) { return LAYER_NAMES[f]; });
      if (layers.length) url.searchParams.set("layer", layers.join(","));
      history.replaceState(null, "", url.toString());
    } catch (err) { /* some file: URLs refuse replaceState; the view still works */ }
  }

  var setLayers = later(function (names) {
    meta.layers.forEach(function (f) {
      if (names.indexOf(LAYER_NAMES[f]) >= 0 || names.indexOf(f) >= 0) shownFamilies.add(f); else shownFamilies.delete(f);
    });
    syncLegend();
    apply();
    setUrl();
  });

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

  /* ---- the legend: what each colour and shape is, and which layers are drawn ----- */

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
    mark.setAttribute("stroke", "#333");
    return svg;
  }

  function checkbox(value, checked, text, onChange) {
    var label = el("label");
    var box = el("input");
    box.type = "checkbox";
    box.checked = checked;
    box.value = value;
    box.addEventListener("change", function () { onChange(box.checked); });
    label.appendChild(box);
    return { label: label, box: box };
  }

  function buildLegend() {
    var list = $("legend-list");
    var layersHead = false;
    data.legend.forEach(function (entry) {
      if (!entry.count) return;
      if (entry.layer && !layersHead) { list.appendChild(el("li", "Layers", "legend-head")); layersHead = true; }
      var item = el("li");
      var c = checkbox(entry.family, shownFamilies.has(entry.family), entry.label, function (on) {
        if (on) shownFamilies.add(entry.family); else shownFamilies.delete(entry.family);
        if (focus) focus.members = focus.day ? focus.members : neighbourhood([focus.id], focus.depth);
        syncLegend();
        apply();
        setUrl();
      });
      c.label.appendChild(swatch(entry));
      c.label.appendChild(el("span", entry.label + " (" + entry.count + ")"));
      item.appendChild(c.label);
      var more = null; /* the kinds an entry covers, shown while it is drawn */
      if (entry.family === "Event" && data.eventLegend.length) {
        more = kindList(data.eventLegend, entry.shape);
      } else if (entry.types.length && (entry.types.length > 1 || entry.types[0] !== entry.label)) {
        more = el("div", entry.types.join(", ") + (entry.moreTypes ? " and " + entry.moreTypes + " more" : ""),
                  "muted legend-types");
      }
      if (more) {
        more.dataset.family = entry.family;
        more.hidden = !shownFamilies.has(entry.family);
        item.appendChild(more);
      }
      list.appendChild(item);
    });
    relationLegend(list);
    var extra = el("li", null, "legend-extra");
    var iso = checkbox("isolated", showIsolated, "", function (on) { showIsolated = on; apply(); });
    iso.label.appendChild(el("span", "nodes with no drawn link"));
    extra.appendChild(iso.label);
    list.appendChild(extra);
    var dash = el("li", "dashed: speculated or negated event", "muted legend-note");
    list.appendChild(dash);
  }

  /* The colour of each of the most frequent kinds of event, under the events' entry. */
  function kindList(kinds, shapeName) {
    var list = el("ul", null, "legend-kinds");
    kinds.forEach(function (kind) {
      var item = el("li", null, "legend-kind");
      item.appendChild(swatch({ shape: shapeName, color: kind.color }));
      item.appendChild(el("span", kind.label + " (" + kind.count + ")"));
      list.appendChild(item);
    });
    return list;
  }

  /* The colour of each relation type the page draws (the most frequent ones, then the rest), each
   * with a box that hides or shows its edges; folded away until asked for, so that the legend does
   * not cover the drawing. */
  function relationLegend(list) {
    var shown = data.relationLegend.filter(function (entry) { return entry.count; });
    if (!shown.length) return;
    var head = el("li", null, "legend-head");
    var fold = el("details");
    fold.id = "relation-legend";
    fold.appendChild(el("summary", "Relations (" + shown.length + " colours)"));
    var inner = el("ul");
    fold.appendChild(inner);
    head.appendChild(fold);
    list.appendChild(head);
    data.relationLegend.forEach(function (entry, index) {
      if (!entry.count) return;
      var item = el("li", null, "legend-relation");
      var c = checkbox("relation:" + index, true, entry.label, function (on) {
        if (on) hiddenRelations.delete(index); else hiddenRelations.add(index);
        apply();
      });
      var svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("width", "16");
      svg.setAttribute("height", "16");
      svg.setAttribute("viewBox", "0 0 16 16");
      shape(svg, "line", { x1: 1, y1: 8, x2: 15, y2: 8, stroke: entry.color, "stroke-width": 3 });
      c.label.appendChild(svg);
      c.label.appendChild(el("span", entry.label + " (" + entry.count + ")"));
      item.appendChild(c.label);
      inner.appendChild(item);
    });
  }

  function syncLegend() {
    Array.prototype.forEach.call($("legend-list").querySelectorAll("input"), function (box) {
      if (box.value !== "isolated" && box.value.indexOf("relation:") !== 0) box.checked = shownFamilies.has(box.value);
    });
    Array.prototype.forEach.call($("legend-list").querySelectorAll("[data-family]"), function (more) {
      more.hidden = !shownFamilies.has(more.dataset.family);
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
    $("timeline-btn").textContent = "Timeline (" + meta.timelineEvents + ")";
    $("figures-btn").textContent = "Figures (" + meta.figureRows + ")";
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && document.activeElement === document.body && !$("panel").hidden) closePanel();
    });
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
    var id = resolve(ident);
    if (id === null) {
      $("status").textContent = "No entity or event named " + ident;
      return;
    }
    var n = nodeById.get(id);
    if (!shownFamilies.has(n.family)) { shownFamilies.add(n.family); syncLegend(); }
    setFocus(id, params.get("depth") || meta.depth || 1);
  }

  var params = initialState();
  buildLegend();
  wire();
  draw();

  return {
    data: data, timings: timings, ready: ready, drawn: drawn, idle: idle, search: search, resolve: resolve, setFocus: setFocus,
    clearFocus: clearFocus, selectNode: selectNode, setLayers: setLayers, focusDay: focusDay,
    openTab: openTab, fit: fitDrawn,
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
})();
