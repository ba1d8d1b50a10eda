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

  /* The sentences (numbers) behind a fact, with their articles; null: being fetched (`provide`). */
  function sources(indices) {
    if (indices === null) return el("div", "fetching the sentences…", "muted fetching");
    var list = el("ul", null, "sources");
    indices.forEach(function (i) {
      var sentence = data.sentences[i];
      var doc = data.docs[sentence.doc] || { title: "unknown document" };
      var item = el("li");
      item.appendChild(el("blockquote", sentence.text));
      var cite = item.appendChild(el("cite", docLine(doc)));
      if (doc.iri && SERVED && PARTIAL) cite.appendChild(articleButton(doc));
      list.appendChild(item);
    });
    return list;
  }

  /* A page holding part of the graph, served: what an article says, fetched and focused on. */
  function articleButton(doc) {
    var button = el("button", "what this article says", "link more");
    button.type = "button";
    button.dataset.doc = doc.iri;
    button.addEventListener("click", function () { showArticle(doc.iri); });
    return button;
  }

  function showArticle(iri) {
    var doc = data.docs.find(function (d) { return d.iri === iri; }) || { title: iri };
    var title = doc.title || iri;
    var fetched = [];
    return fetchSelection({ doc: iri }, "what “" + title + "” says", function (ids) { fetched = ids; }).then(function () {
      var named = data.nodes.filter(function (n) {
        return (data.nodeDetails[n.id].sentences || []).some(function (k) {
          return data.docs[data.sentences[k].doc] && data.docs[data.sentences[k].doc].iri === iri;
        }) || n.id.indexOf(iri + "/") === 0;
      }).map(function (n) { return n.id; });
      fetched.forEach(function (id) { if (named.indexOf(id) < 0) named.push(id); });
      if (named.length) focusOn(named, "what “" + title + "” says");
    });
  }

  /* The node's details in the panel, and the drawing with it selected (what it brings in laid out around it). */
  function showNode(id) {
    var d = data.nodeDetails[id];
    if (!d) { apply(id); return; }
    selected = id;
    $("focus-btn").disabled = false;
    if ($("panel-body").dataset.node !== id) listed.clear();  /* another node's panel opens on its first items */
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
    if (d.sentences === null || d.sentences.length) {
      var mentioned = el("details");
      var total = d.sentenceCount || (d.sentences || []).length;
      mentioned.appendChild(el("summary", "Mentioned in " + plural(total, "sentence")));
      mentioned.appendChild(sources(d.sentences));
      if (d.sentences && total > d.sentences.length) mentioned.appendChild(el("div", "the first " + d.sentences.length + " shown", "muted"));
      body.appendChild(mentioned);
    }
    apply(id);
    provide([id], d.relations).then(function (fetched) {
      if (fetched && selected === id && $("panel-body").dataset.node === id) showNode(id);
    });
  }

  /* A group is local to its article: say which, and that another article's group is other people. */
  function groupNote(d) {
    var articles = [];
    (d.sentences || []).forEach(function (i) {
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

  /* The entities this one is linked to, and why (opens the link's panel). */
  function linkList(id) {
    var wrap = el("section", null, "links");
    var ids = adjacency.get(id).filter(function (eid) { return edgeById.get(eid).kind === "link"; });
    wrap.appendChild(el("h3", "Linked to " + plural(ids.length, "entity", "entities")));
    lazyList(wrap, id + "\nlinks", ids.length, function (k) {
      var eid = ids[k], e = edgeById.get(eid);
      var item = el("li", null, "link-item");
      item.dataset.edge = eid;
      item.appendChild(nodeLink(otherEnd(e, id)));
      var why = el("button", e.text, "link why");
      why.type = "button";
      why.addEventListener("click", function () { showEdge(eid); });
      item.appendChild(el("span", " · "));
      item.appendChild(why);
      return item;
    });
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
    item.appendChild(rel.sentences === null || rel.sentences.length ? sources(rel.sentences) : el("div", "no source sentence", "muted"));
    return item;
  }

  function relationList(id) {
    var wrap = el("section", null, "relations");
    var rels = data.nodeDetails[id].relations;
    wrap.appendChild(el("h3", "Relations (" + rels.length + ")"));
    lazyList(wrap, id + "\nrelations", rels.length, function (k) { return relationItem(data.relations[rels[k]], id); });
    return wrap;
  }

  /* A panel's long list laid out a screenful at a time (a node with hundreds of relations and their
   * sentences took a tenth of a second to lay out whole): its first LIST_FIRST items, then
   * LIST_MORE more each time the visitor scrolls to its end or clicks the button under it, so that
   * every item, and every sentence it cites, stays reachable. A list drawn again (its sentences
   * fetched) keeps as many items as the visitor had shown (`listed`, by `key`). */
  var LIST_FIRST = 20;
  var LIST_MORE = 50;
  var listed = new Map();  /* list key -> items shown */

  function lazyList(wrap, key, count, item) {
    var list = wrap.appendChild(el("ul"));
    var more = el("button", null, "link list-more");
    more.type = "button";
    var shown = 0;
    var watcher = typeof IntersectionObserver === "function" ? new IntersectionObserver(function (seen) {
      if (seen.some(function (s) { return s.isIntersecting; })) grow(LIST_MORE);
    }, { root: $("panel") }) : null;
    function grow(n) {
      var end = Math.min(count, shown + n), items = document.createDocumentFragment();
      for (; shown < end; shown++) items.appendChild(item(shown));
      list.appendChild(items);
      listed.set(key, shown);
      if (shown < count) {
        more.textContent = "show " + Math.min(LIST_MORE, count - shown) + " more (" + plural(count - shown, "not shown", "not shown") + ")";
        return;
      }
      if (watcher) watcher.disconnect();
      more.remove();
    }
    more.addEventListener("click", function () { grow(LIST_MORE); });
    grow(Math.max(LIST_FIRST, listed.get(key) || 0));
    if (shown < count) {
      wrap.appendChild(more);
      if (watcher) watcher.observe(more);
    }
    return list;
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
    var count = stated.reduce(function (n, r) { return n + (r.sentences || []).length; }, 0);
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
        var said = new Set(), lacking = false;
        d.relations.forEach(function (i) {
          var r = data.relations[i];
          if (r.from !== ev || (r.to !== e.from && r.to !== e.to)) return;
          if (r.sentences === null) lacking = true; else r.sentences.forEach(function (s) { said.add(s); });
        });
        item.appendChild(sources(lacking ? null : Array.from(said).sort(function (a, b) { return a - b; })));
        events.appendChild(item);
      });
      body.appendChild(events);
    }
    provide([], edgeRelations(e)).then(function (fetched) {
      if (fetched && $("panel-body").dataset.edge === eid) showEdge(eid);
    });
  }

  /* The relations an edge's panel cites: its own, and its shared events' roles of its two ends. */
  function edgeRelations(e) {
    var numbers = e.relations.slice();
    (e.kind === "link" ? e.events : []).forEach(function (ev) {
      data.nodeDetails[ev].relations.forEach(function (i) {
        var r = data.relations[i];
        if (r.from === ev && (r.to === e.from || r.to === e.to)) numbers.push(i);
      });
    });
    return numbers;
  }

  /* ---- timeline and figures -------------------------------------------------- */

  /* The dated events in order, grouped by the day (or month, or year) the text gives. A page
   * holding part of the graph lists the days of the whole graph with their counts, and the events
   * it holds; served, a day's button fetches the others. */
  function buildTimeline() {
    var body = $("timeline-body");
    body.appendChild(el("p", "Dated events in order, grouped by the day (or month, or year) the text gives. " +
      "Click an event or a day to show who takes part.", "muted"));
    var days = data.timelineSummary || data.timeline;
    var held = new Map(data.timeline.map(function (d) { return [d.date, d]; }));
    if (data.timelineSummary) body.appendChild(partialNote(meta.datedEvents, "dated event"));
    days.forEach(function (summary) {
      var day = held.get(summary.date) || { date: summary.date, label: summary.label, events: [] };
      var count = summary.count || day.events.length;
      var section = el("section", null, "day");
      section.dataset.date = day.date;
      var head = el("button", day.label + " (" + count + ")", "link day-head");
      head.type = "button";
      head.addEventListener("click", function () { showDay(day.date); });
      var h3 = el("h3");
      h3.appendChild(head);
      section.appendChild(h3);
      var list = el("ul");
      day.events.forEach(function (ev) { list.appendChild(timelineEvent(ev)); });
      section.appendChild(list);
      if (count > day.events.length) section.appendChild(moreNote(count - day.events.length, "event"));
      body.appendChild(section);
    });
    var referenced = [];
    data.timeline.forEach(function (day) { day.events.forEach(function (ev) { referenced.push.apply(referenced, ev.docs); }); });
    provideDocs(referenced).then(function (fetched) {
      if (fetched && !$("panel").hidden && !$("timeline-body").hidden) {
        clear($("timeline-body"));
        buildTimeline();
      }
    });
  }

  function timelineEvent(ev) {
    var item = el("li", null, "tl-event" + (ev.uncertain ? " uncertain" : ""));
    item.dataset.node = ev.id;
    var button = el("button", ev.label, "link");
    button.type = "button";
    button.addEventListener("click", function () { focusNodes(ev.id, [ev.id]); });
    item.appendChild(button);
    item.appendChild(el("span", " " + ev.type + (ev.uncertain ? " · " + ev.uncertain : ""), ev.uncertain ? "uncertain-tag" : "muted"));
    var who = ev.participants.filter(function (p) { return nodeById.has(p); }).map(label);
    if (who.length) item.appendChild(el("div", who.join(", "), "who"));
    var docs = ev.docs.map(function (d) { return data.docs[d]; });
    var whole = docs.every(function (d) { return d.title !== undefined; });
    var from = el("div", "Sources: " + (whole ? docs.map(shortDoc).join("; ") : "fetching the articles…"), whole ? "from" : "from fetching");
    from.title = whole ? docs.map(function (d) { return d.title; }).join("\n") : "";
    item.appendChild(from);
    return item;
  }

  /* A day's events: fetched first when the page lacks some (served), then focused on. */
  function showDay(date) {
    var summary = (data.timelineSummary || []).find(function (d) { return d.date === date; });
    var day = data.timeline.find(function (d) { return d.date === date; });
    var lacking = summary && (!day || day.events.length < summary.count);
    if (lacking && SERVED) return fetchSelection({ date: date }, "the events of " + summary.label).then(function () { focusDay(date); });
    return Promise.resolve(focusDay(date));
  }

  /* Under a table of a page holding part of the graph: how much of it the page holds. */
  function partialNote(total, word) {
    var note = SERVED ? "The whole graph has " + plural(total, word) + "; the page holds those of its overview, " +
      "and fetches the others of a day or a topic when you click it." :
      "The whole graph has " + plural(total, word) + "; this file holds those of its overview. " +
      "`kg serve` shows the others (/graph).";
    return el("p", note, "muted partial-note");
  }

  function moreNote(count, word) {
    return el("div", plural(count, word) + " more" + (SERVED ? ": click the heading to fetch them" : " in the whole graph"),
              "muted more-note");
  }

  /* Every reported figure, grouped by what it counts; a page holding part of the graph lists every
   * topic of the whole graph with its count, and the rows it holds. */
  function buildFigures() {
    var body = $("figures-body");
    body.appendChild(el("p", "Every reported figure, grouped by what it counts (the kind of event and the role it fills). " +
      "Each row is one claim: its own source, date and article.", "muted"));
    var held = new Map(data.figures.map(function (g) { return [g.topic, g]; }));
    var topics = data.figureSummary || data.figures;
    if (data.figureSummary) body.appendChild(partialNote(meta.figures, "figure"));
    topics.forEach(function (summary) {
      var group = held.get(summary.topic) || { topic: summary.topic, rows: [] };
      var count = summary.count || group.rows.length;
      var head = body.appendChild(el("h3"));
      if (data.figureSummary && summary.kind && SERVED && count > group.rows.length) {
        var fetchTopic = el("button", group.topic + " (" + count + ")", "link topic-head");
        fetchTopic.type = "button";
        fetchTopic.addEventListener("click", function () {
          fetchSelection({ kind: summary.kind }, "the figures of " + group.topic).then(function () { openTab("figures"); });
        });
        head.appendChild(fetchTopic);
      } else {
        head.textContent = group.topic + " (" + count + ")";
      }
      if (group.rows.length) body.appendChild(figureTable(group));
      if (count > group.rows.length) body.appendChild(moreNote(count - group.rows.length, "figure"));
    });
  }

  function figureTable(group) {
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
      row.sources.forEach(function (s, i) {
        if (i) source.appendChild(el("span", ", "));
        source.appendChild(nodeById.has(s) ? nodeLink(s) : el("span", s.split("/").pop()));
      });
      if (!row.sources.length) source.appendChild(el("span", "not said", "muted"));
      tr.appendChild(source);
      tr.appendChild(el("td", row.date, "date"));
      var doc = data.docs[row.doc];
      tr.appendChild(el("td", doc ? shortDoc(doc) : "", "article"));
      if (doc) tr.lastChild.title = doc.title;
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    return table;
  }

