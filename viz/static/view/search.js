  /* ---- search ----------------------------------------------------------------- */

  /* Ranked as /api/search ranks: shared entities, then things local to one document (a description,
     "the government": `local`), then events, figures and quotes; then the best match of any label
     (whole label, label prefix, word prefix, anywhere); then more mentions; then that label. */
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
      if (match) hits.push({ id: n.id, kind: NOT_ENTITIES[d.family] ? 2 : d.local ? 1 : 0, rank: match.rank, key: match.key,
                             mentions: d.mentions || 0 });
    });
    hits.sort(function (a, b) {
      return a.kind - b.kind || a.rank - b.rank || b.mentions - a.mentions || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
        data.nodeDetails[a.id].label.localeCompare(data.nodeDetails[b.id].label);
    });
    return hits.map(function (h) { return h.id; });
  }

  /* The hits the page holds, then (a page holding part of the graph, served) the server's
   * (/api/search: every entity of the graph, by its labels and aliases) that the page lacks. */
  var SEARCH_DELAY = 120;  /* ms of typing pause before the server is asked */
  var searchTimer = null;
  var serverHits = { query: null, items: [] };

  function showResults() {
    var list = clear($("results"));
    var query = $("search").value;
    var hits = search(query);
    list.hidden = !query.trim();
    if (!query.trim()) return;
    hits.slice(0, 30).forEach(function (id) {
      var d = data.nodeDetails[id];
      list.appendChild(resultItem(id, d.label, d.types[0] || d.family, function () { selectNode(id); }));
    });
    var fetched = serverHits.query === query.trim() ? serverHits.items : [];
    fetched.filter(function (item) { return !nodeById.has(item.iri); }).forEach(function (item) {
      list.appendChild(resultItem(item.iri, item.label, (item.types || [])[0] || "entity", function () { bring(item.iri); }, true));
    });
    if (!list.firstChild) list.appendChild(el("li", loaded ? (askServer(query) ? "Searching…" : "No match") : "Loading…", "muted"));
    else askServer(query);
  }

  function resultItem(id, text, kind, choose, remote) {
    var item = el("li");
    var button = el("button");
    button.type = "button";
    button.dataset.node = id;
    if (remote) button.dataset.remote = "true";
    button.appendChild(el("span", text));
    button.appendChild(el("span", "  " + kind + (remote ? " · not on the page yet" : ""), "kind"));
    button.addEventListener("click", function () { $("results").hidden = true; choose(); });
    item.appendChild(button);
    return item;
  }

  /* Ask the server for `query` after a pause in typing; true when it will be asked. */
  function askServer(query) {
    var q = query.trim();
    if (!SERVED || !PARTIAL || q.length < 2 || serverHits.query === q) return false;
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () {
      lookup(q).then(function () { if ($("search").value.trim() === q) showResults(); });
    }, SEARCH_DELAY);
    return true;
  }

  /* Settles with the IRIs `query` finds: the page's hits, then the server's it lacks (served). */
  function lookup(query) {
    var q = String(query).trim();
    var local = search(q);
    if (!SERVED || !PARTIAL || q.length < 2) return Promise.resolve(local);
    if (serverHits.query === q) return Promise.resolve(withServer(local));
    return track(getJson(endpoint("api/search", { q: q, limit: 20 })).then(function (answer) {
      serverHits = { query: q, items: answer.items || [] };
      return withServer(search(q));
    }).catch(function (err) {
      $("status").textContent = "Could not search the server: " + err.message;
      return local;
    }));
  }

  function withServer(local) {
    var seen = new Set(local);
    return local.concat(serverHits.items.map(function (item) { return item.iri; }).filter(function (iri) {
      return !seen.has(iri);
    }));
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

  /* Focus on a set of nodes (what an article says, say), titled `title`. */
  function focusOn(members, title) {
    focus = { id: members[0], depth: 1, roots: new Set(members), members: new Set(members), day: title };
    members.forEach(function (id) { var n = nodeById.get(id); if (n && !shownFamilies.has(n.family)) shownFamilies.add(n.family); });
    syncLegend();
    $("unfocus-btn").hidden = false;
    apply(members[0]);
    fitDrawn();
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
