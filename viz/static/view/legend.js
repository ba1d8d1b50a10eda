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
      if (SERVED && PARTIAL) item.appendChild(moreButton(entry.family in CORPUS_KINDS ? { kind: entry.family } : { family: entry.family },
                                                        entry.family, entry.label));
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
      if (SERVED && PARTIAL && kind.kind) item.appendChild(moreButton({ kind: kind.kind }, "Event", kind.label));
      list.appendChild(item);
    });
    return list;
  }

  /* The legend entries that stand for one type of the corpus's own (their key is its class IRI). */
  var CORPUS_KINDS = {};
  data.legend.forEach(function (entry) { if (/^[a-z][a-z0-9+.-]*:/i.test(entry.family)) CORPUS_KINDS[entry.family] = true; });

  /* A page holding part of the graph, served: fetch the best nodes of a legend entry and show them. */
  function moreButton(params, family, text) {
    var button = el("button", "+", "more-of");
    button.type = "button";
    button.title = "Fetch more " + text + " from the server";
    button.setAttribute("aria-label", button.title);
    button.addEventListener("click", function () {
      fetchSelection(params, "more " + text, function (fetched) {
        shownFamilies.add(family);
        syncLegend();
        if (expanded !== null) fetched.forEach(function (id) { if (isActor(id)) expanded.add(id); });
        apply();
      });
    });
    return button;
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
