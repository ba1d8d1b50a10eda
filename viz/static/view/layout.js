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
      for (var cy = Math.floor(box.top / c); cy <= Math.floor(box.bottom / c); cy++) fn(cellKey(cx, cy));
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
    if (n.labelHalf === undefined) n.labelHalf = textWidth(n.label, FONT + "px " + FONT_FACE) / 2 + GAP / 2;
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
