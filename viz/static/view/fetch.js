  /* ---- on demand: what the server that serves the page sends ----------------------------- */

  /* A page served by `kg serve` (over http) may hold only part of a large graph (its overview:
   * `meta.total` nodes in all). A click on a node with neighbours outside the page (`outside`), a
   * search hit the page lacks and the filters (a legend entry, a day of the timeline, a topic of
   * the figures, an article) fetch the rest, a few hundred nodes at a time, from
   * /graph/neighbours and /graph/nodes; the page merges each block into its data and lays the new
   * nodes out around the node that brought them. A file: page never fetches: it says how to see
   * the rest. */
  var SERVED = /^https?:$/.test(window.location.protocol);
  var PARTIAL = meta.total > meta.nodes;  /* the page holds part of the graph */
  var asked = new Set();   /* URLs fetched or being fetched */
  var fetching = [];       /* fetches under way */
  var merges = 0;

  var selectNode = later(function (id) {
    if (!nodeById.has(id)) return;
    var n = nodeById.get(id);
    if (!shownFamilies.has(n.family)) { shownFamilies.add(n.family); syncLegend(); }
    if (focus && !focus.members.has(id)) clearFocus();
    fetchNeighbours(id);  /* first: the server answers while the page draws what it holds */
    if (expanded !== null && !n.layer) expand(id);
    showNode(id);
    batched(function () {
      network.selectNodes([id]);
      network.focus(id, { scale: Math.max(network.getScale(), 1.0), animation: false });
    });
    changed();
    onZoom();  /* a zoom by script fires no zoom event: fit the labels to the new scale */
    setUrl();
  });

  function endpoint(path, params) {
    var url = new URL(path, window.location.href);
    Object.keys(params).forEach(function (k) { url.searchParams.set(k, params[k]); });
    return url.href;
  }

  /* Fetch a block of the graph once and merge it; `then(block)` runs after the merge. Settles
   * true when merged, false when not fetched (offline, asked before, or failed: said in the
   * status line, and tried again on the next ask). */
  function fetchBlock(url, what, then) {
    if (!SERVED || asked.has(url)) return Promise.resolve(false);
    asked.add(url);
    $("status").textContent = "Fetching " + what + "…";
    var started = performance.now();
    var done = getJson(url).then(function (block) {
      var received = performance.now();
      merge(block);
      var merged = performance.now();
      if (then) then(block);
      $("status").textContent = "";
      counts(wanted());
      performance.measure("kg:fetch", { start: started, end: received });
      performance.measure("kg:merge", { start: received, end: merged });
      performance.measure("kg:show", { start: merged });
      return true;
    }).catch(function (err) {
      asked.delete(url);
      $("status").textContent = "Could not fetch " + what + ": " + err.message;
      return false;
    });
    return track(done);
  }

  function getJson(url) {
    return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("the server answered " + response.status);
        return response.json();
      });
  }

  function track(done) {
    fetching.push(done);
    done.then(function () { fetching.splice(fetching.indexOf(done), 1); });
    return done;
  }

  /* A clicked or selected node's neighbours the page lacks. */
  function fetchNeighbours(id) {
    var n = nodeById.get(id);
    if (!n || !n.outside) return Promise.resolve(false);
    return fetchBlock(endpoint("graph/neighbours", { node: id }), "the neighbours of " + label(id), function () {
      if (expanded !== null && isActor(id)) expand(id);
      if (selected === id) showNode(id); else apply(id);
    });
  }

  /* Put a node on the canvas, fetching it with its neighbours when the page lacks it; settles
   * true once it is selected and drawn. */
  function bring(id) {
    var shown = function () { selectNode(id); return drawn(); };
    if (nodeById.has(id)) return ready.then(shown);
    return fetchBlock(endpoint("graph/neighbours", { node: id }), "a search hit").then(function (merged) {
      return merged && nodeById.has(id) ? ready.then(shown) : false;
    });
  }

  /* The best nodes of a selection ({family}, {kind}, {date} or {doc}) and what their events name;
   * `then(ids)` with the block's nodes once they are merged. */
  function fetchSelection(params, what, then) {
    return fetchBlock(endpoint("graph/nodes", params), what, function (block) {
      if (then) then(block.nodes.map(function (n) { return n.id; }));
    });
  }

  /* Settles when no fetch is under way. */
  function idle() {
    return Promise.all(fetching.slice()).then(function () { return fetching.length ? idle() : true; });
  }

  /* Add a fetched block (nodes, edges, relations, details, dated events, figures, sentences,
   * documents numbered within it) to the page's data: nodes and edges it already has are kept as
   * they are. */
  function merge(block) {
    merges++;
    var local = block.nodes.map(function (n) { return n.id; });
    var known = new Set(local.filter(function (id) { return nodeById.has(id); }));
    var sentenceBase = data.sentences.length, relationBase = data.relations.length;
    var layers = new Set(meta.layers);
    var shift = function (k) { return k + sentenceBase; };
    var shiftAll = function (list) { return list === null ? null : list.map(shift); };  /* null: fetched on a click */
    var docNumbers = block.docs.map(takeDoc);
    block.sentences.forEach(function (s) { data.sentences.push({ text: s.text, doc: s.doc < 0 ? -1 : docNumbers[s.doc] }); });
    block.relations.forEach(function (r, i) {
      var from = local[r.from], to = local[r.to];
      data.relations.push({ from: from, to: to, predicate: r.predicate, label: r.label, sentences: shiftAll(r.sentences) });
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
      d.sentences = shiftAll(d.sentences);
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
    mergeTables(block, sentenceBase, docNumbers);
    meta.nodes = data.nodes.length;
  }

  /* The page's documents by IRI: an answer's document the page holds already keeps its number (a
   * reference, {iri} alone, is completed by a whole one). */
  var docNumber = new Map();
  var docsNumbered = null;  /* the data.docs array docNumber numbers (loadMore replaces it) */

  function takeDoc(doc) {
    if (docsNumbered !== data.docs) {
      docNumber = new Map(data.docs.map(function (d, k) { return [d.iri, k]; }));
      docsNumbered = data.docs;
    }
    var k = docNumber.get(doc.iri);
    if (k === undefined) {
      k = data.docs.length;
      data.docs.push(doc);
      docNumber.set(doc.iri, k);
    } else if (doc.title !== undefined && data.docs[k].title === undefined) {
      data.docs[k] = doc;
    }
    return k;
  }

  /* Documents a fetched block's timeline lists by reference (their IRI alone): fetched whole once
   * the timeline shows them (POST /graph/sources); settles true when it fetched any. */
  var docsAsked = new Set();

  function provideDocs(numbers) {
    var iris = numbers.map(function (k) { return data.docs[k]; })
      .filter(function (d) { return d && d.title === undefined && !docsAsked.has(d.iri); })
      .map(function (d) { return d.iri; });
    iris = Array.from(new Set(iris));
    if (!SERVED || !iris.length) return Promise.resolve(false);
    iris.forEach(function (iri) { docsAsked.add(iri); });
    var asks = [];
    for (var at = 0; at < iris.length; at += SOURCES_BATCH) {
      asks.push(postJson(endpoint("graph/sources", {}), { docs: iris.slice(at, at + SOURCES_BATCH) }));
    }
    var done = Promise.all(asks).then(function (answers) {
      answers.forEach(function (answer) { answer.docs.forEach(takeDoc); });
      iris.forEach(function (iri) { takeDoc({ iri: iri, title: iri }); });  /* one the server lacks: named by its IRI */
      return true;
    }).catch(function (err) {
      iris.forEach(function (iri) { docsAsked.delete(iri); });
      $("status").textContent = "Could not fetch the articles: " + err.message;
      return false;
    });
    return track(done);
  }

  /* ---- provenance on demand: the sentences behind what a panel lists -------------------------- */

  /* A fetched block cites the sentences of the node it is about only; the others' are null until
   * a panel lists them: `provide` fetches the mentions of `ids` and the statements of the
   * relations numbered `relationNumbers` that the page lacks (POST /graph/sources, in batches),
   * and settles true when it fetched any (the panel is drawn again then). */
  var SOURCES_BATCH = 1000;  /* relations one request asks for at most (api/view.py SOURCES_RELATIONS) */

  function provide(ids, relationNumbers) {
    var nodes = ids.filter(function (id) { return data.nodeDetails[id] && data.nodeDetails[id].sentences === null; });
    var keys = new Map();
    relationNumbers.forEach(function (i) {
      var r = data.relations[i];
      if (r.sentences === null) keys.set(r.from + "\n" + r.predicate + "\n" + r.to, [r.from, r.predicate, r.to]);
    });
    var relations = Array.from(keys.values());
    if (!SERVED || (!nodes.length && !relations.length)) return Promise.resolve(false);
    var asks = [];
    for (var at = 0; at === 0 || at < relations.length; at += SOURCES_BATCH) {
      asks.push(postJson(endpoint("graph/sources", {}), { nodes: at ? [] : nodes, relations: relations.slice(at, at + SOURCES_BATCH) }));
    }
    var done = Promise.all(asks).then(function (answers) {
      answers.forEach(function (answer, k) {
        mergeSources(answer, k ? [] : nodes, relations.slice(k * SOURCES_BATCH, (k + 1) * SOURCES_BATCH));
      });
      return true;
    }).catch(function (err) {
      $("status").textContent = "Could not fetch the sentences: " + err.message;
      return false;
    });
    return track(done);
  }

  function postJson(url, body) {
    return fetch(url, { method: "POST", headers: { Accept: "application/json", "Content-Type": "application/json" },
                        credentials: "same-origin", body: JSON.stringify(body) })
      .then(function (response) {
        if (!response.ok) throw new Error("the server answered " + response.status);
        return response.json();
      });
  }

  /* An answer of /graph/sources into the page's sentences, documents, details and relations. */
  function mergeSources(answer, askedNodes, asked) {
    var sentenceBase = data.sentences.length;
    var shift = function (k) { return k + sentenceBase; };
    var docNumbers = answer.docs.map(takeDoc);
    answer.sentences.forEach(function (s) { data.sentences.push({ text: s.text, doc: s.doc < 0 ? -1 : docNumbers[s.doc] }); });
    askedNodes.forEach(function (id) {
      var d = data.nodeDetails[id];
      if (d.sentences !== null) return;
      d.sentences = (answer.mentions[id] || []).map(shift);
      if (answer.mentioned[id]) d.sentenceCount = answer.mentioned[id];
    });
    var stated = new Map(asked.map(function (r, k) { return [r.join("\n"), answer.relations[k].map(shift)]; }));
    data.relations.forEach(function (r) {
      if (r.sentences === null) {
        var found = stated.get(r.from + "\n" + r.predicate + "\n" + r.to);
        if (found) r.sentences = found;
      }
    });
  }

  /* The block's dated events and figures into the page's timeline and figures tables (those the
   * page already lists are kept); the tables are drawn again when next shown. */
  function mergeTables(block, sentenceBase, docNumbers) {
    var listed = new Set();
    data.timeline.forEach(function (day) { day.events.forEach(function (ev) { listed.add(ev.id); }); });
    (block.timeline || []).forEach(function (day) {
      var mine = data.timeline.find(function (d) { return d.date === day.date; });
      if (!mine) {
        mine = { date: day.date, label: day.label, events: [] };
        data.timeline.push(mine);
      }
      day.events.forEach(function (ev) {
        if (listed.has(ev.id)) return;
        ev.sentences = ev.sentences.map(function (k) { return k + sentenceBase; });
        ev.docs = ev.docs.map(function (k) { return docNumbers[k]; });
        mine.events.push(ev);
      });
    });
    data.timeline.sort(function (a, b) { return a.date < b.date ? -1 : a.date > b.date ? 1 : 0; });
    (block.figures || []).forEach(function (group) {
      var mine = data.figures.find(function (g) { return g.topic === group.topic; });
      if (!mine) {
        mine = { topic: group.topic, rows: [] };
        data.figures.push(mine);
      }
      var have = new Set(mine.rows.map(function (r) { return r.id; }));
      group.rows.forEach(function (row) {
        if (have.has(row.id)) return;
        row.doc = row.doc < 0 ? -1 : docNumbers[row.doc];
        row.sentence = row.sentence < 0 ? -1 : row.sentence + sentenceBase;
        mine.rows.push(row);
      });
    });
    clear($("timeline-body"));
    clear($("figures-body"));
    if (!$("panel").hidden && !$("timeline-body").hidden) buildTimeline();
    if (!$("panel").hidden && !$("figures-body").hidden) buildFigures();
  }
