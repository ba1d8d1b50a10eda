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
    var started = performance.now();
    batched(function () { applyWanted(anchor); });
    performance.measure("kg:apply", { start: started });
  }

  /* With physics off, vis-network draws the whole canvas again, there and then, after each change
   * to its data sets (its `_dataChanged` starts no simulation: it redraws): a batch of changes is
   * drawn once, at the next animation frame. */
  function batched(change) {
    if (!network) return change();
    var emitter = network.body.emitter;
    emitter.emit("_blockRedraw");
    try {
      return change();
    } finally {
      emitter.emit("_allowRedraw");
      emitter.emit("_requestRedraw");
    }
  }

  function applyWanted(anchor) {
    var want = wanted();
    var removeNodes = nodes.getIds().filter(function (id) { return !want.nodes.has(id); });
    var addNodes = [];
    want.nodes.forEach(function (id) { if (!nodes.get(id)) addNodes.push(id); });
    var wantEdges = new Set(want.edges.map(function (e) { return e.id; }));
    var removeEdges = edges.getIds().filter(function (id) { return !wantEdges.has(id); });
    edges.remove(removeEdges);
    removeEdges.forEach(function (id) { edgeLabelled.delete(id); });
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

  function counts(want) {
    var actors = 0, layer = 0;
    want.nodes.forEach(function (id) { if (isActor(id)) actors++; else layer++; });
    var links = want.edges.filter(function (e) { return e.kind === "link"; }).length;
    var text = plural(actors, "entity", "entities") + " · " + plural(links, "link") +
      (layer ? " · " + plural(layer, "other node") : "") + " drawn · " + meta.nodes.toLocaleString("en") + " nodes in the page" +
      (PARTIAL ? " of " + meta.total.toLocaleString("en") : "");
    $("counts").textContent = text;
    var notes = [];
    if (focus) notes.push("Focus: " + (focus.day ? focus.day : label(focus.id)) + " and what it links to");
    if (expanded !== null && !focus) {
      notes.push("The " + meta.initial.length + (meta.linked ? " best-connected entities; click one to add its neighbours, or search"
                                                               : " most mentioned entities; search finds the others"));
    }
    if (!showIsolated && meta.actors > meta.linked && !focus) {
      notes.push(plural(meta.actors - meta.linked, "entity", "entities") + " with no link hidden");
    }
    if (PARTIAL && !focus) notes.push(SERVED ? "An overview of the graph: search, click or filter to fetch the rest"
                                             : "An overview of the graph; run `kg serve` and open /graph to search and expand the rest");
    if (!meta.nodes) notes.push("Nothing to draw: the graph has no entity, event, date, figure or quote");
    $("status").textContent = notes.join(" · ");
  }

  /* ---- labels: by importance, never covering another node or label ------------- */

  function shapeBox(n) {
    var s = n.size;
    return { left: n.x - s, right: n.x + s, top: n.y - s, bottom: n.y + s };
  }

  /* The box vis-network reports for a node and its label (drawn under the shape). */
  function withLabel(n, text, bold) {
    var box = shapeBox(n);
    if (!text) return box;
    var half = textWidth(text, (bold ? "bold " : "") + fontSize + "px " + FONT_FACE) / 2 + 1;
    return { left: Math.min(box.left, n.x - half), right: Math.max(box.right, n.x + half),
             top: box.top, bottom: box.bottom + fontSize + 1 };
  }

  /* The width of `text` in `font`, measured once (labels are measured again at each change of the drawing). */
  var widths = new Map();
  function textWidth(text, font) {
    var key = font + "\n" + text;
    var width = widths.get(key);
    if (width === undefined) {
      if (widths.size > 50000) widths.clear();
      measure.font = font;
      width = measure.measureText(text).width;
      widths.set(key, width);
    }
    return width;
  }

  /* A cell of a uniform grid as one number (a grid of label boxes, or of placed nodes' rooms). */
  function cellKey(cx, cy) { return cx * 1048576 + cy; }

  function hit(a, b) { return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }

  /* Greedy: the most important nodes first; a label is drawn when its node-and-label box
   * meets no other drawn node's box (the selected node's label always is). A uniform grid
   * keeps it near-linear. */
  function placeLabels() {
    var ids = nodes.getIds();
    var cell = 160;
    var grid = new Map();
    var boxes = new Map();
    function cells(box, fn) {
      for (var cx = Math.floor(box.left / cell); cx <= Math.floor(box.right / cell); cx++)
        for (var cy = Math.floor(box.top / cell); cy <= Math.floor(box.bottom / cell); cy++) fn(cellKey(cx, cy));
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
      var box = withLabel(n, text, id === selected);  /* vis draws the selected node's label bold */
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

  var edgeLabelled = new Map(); /* edge id -> label drawn (absent: none) */

  function edgeLabels() {
    var ids = edges.getIds();
    var few = ids.length <= EDGE_LABELS_MAX;
    var updates = [];
    ids.forEach(function (id) {
      var e = edgeById.get(id);
      var show = few || (selected !== null && (e.from === selected || e.to === selected));
      var want = show ? e.text : "";
      if ((edgeLabelled.get(id) || "") !== want) {
        updates.push({ id: id, label: want });
        edgeLabelled.set(id, want);
      }
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
    batched(placeLabels);
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
      fetchNeighbours(id);  /* first: the server answers while the page draws what it holds */
      if (expanded !== null && isActor(id)) expand(id);
      showNode(id);
    } else if (params.edges.length) showEdge(params.edges[0]);
    else closePanel();
  });

  /* Add an entity's linked entities to what a large graph draws; the next `apply(id)` (showNode's)
   * lays them out around it. */
  function expand(id) {
    expanded.add(id);
    adjacency.get(id).forEach(function (eid) {
      var e = edgeById.get(eid);
      if (e.kind === "link") expanded.add(otherEnd(e, id));
    });
  }
