// The graph page's one script. It reads the page's data (JSON in a
// script element that is never run) and fills the panel when a node is
// clicked. Everything it shows goes in as text (textContent), never as
// markup, so a name or a source line cannot add elements to the page.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("cogflow-data").textContent);
  var panel = document.getElementById("panel");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function clear(e) {
    while (e.firstChild) e.removeChild(e.firstChild);
  }

  function edgeList(title, edges, arrow) {
    var box = el("div");
    if (!edges || edges.length === 0) return box;
    box.appendChild(el("h3", null, title));
    var ul = el("ul", "edges");
    edges.forEach(function (e) {
      var text = arrow + " " + e.node + " (" + e.kind + ")";
      if (e.label) text += ": " + e.label;
      ul.appendChild(el("li", "k-" + e.kind, text));
    });
    box.appendChild(ul);
    return box;
  }

  function fact(f, i) {
    var box = el("div", "fact st-" + f.outcome);
    var dl = el("dl");
    function row(k, v) {
      if (v === undefined || v === null || v === "") return;
      dl.appendChild(el("dt", null, k));
      dl.appendChild(el("dd", null, v));
    }
    row("#", i + 1);
    row("status", f.outcome);
    row("duration", f.duration);
    row("where", f.where);
    row("value", f.value);
    row("from", f.source);
    (f.args || []).forEach(function (a) {
      var v = a.value;
      if (a.source) v += "  (" + a.source + ")";
      row(a.name ? "arg " + a.name : "arg", v);
    });
    row("error", f.error);
    box.appendChild(dl);
    return box;
  }

  function show(id, g) {
    var n = data.nodes[id];
    if (!n) return;
    document.querySelectorAll(".selected, .edge.hl").forEach(function (x) {
      x.classList.remove("selected");
      x.classList.remove("hl");
    });
    g.classList.add("selected");
    document.querySelectorAll(".edge").forEach(function (e) {
      if (e.getAttribute("data-from") === id || e.getAttribute("data-to") === id) e.classList.add("hl");
    });
    panel.hidden = false;
    panel.setAttribute("data-node", id);
    document.getElementById("panel-title").textContent = n.label;
    document.getElementById("panel-kind").textContent = n.kind + " " + id;
    var src = document.getElementById("panel-source");
    clear(src);
    n.lines.forEach(function (l, i) {
      if (i > 0) src.appendChild(document.createTextNode("\n"));
      src.appendChild(el("span", "ln", l.n));
      src.appendChild(document.createTextNode(l.text));
    });
    var edges = document.getElementById("panel-edges");
    clear(edges);
    edges.appendChild(edgeList("Uses", n.in, "←"));
    edges.appendChild(edgeList("Used by", n.out, "→"));
    var run = document.getElementById("panel-run");
    clear(run);
    if (data.run && n.kind === "input") {
      run.appendChild(el("h3", null, "In run " + data.run.id));
      if (n.given !== undefined) {
        var dl = el("dl");
        dl.appendChild(el("dt", null, "given"));
        dl.appendChild(el("dd", null, n.given));
        var box = el("div", "fact");
        box.appendChild(dl);
        run.appendChild(box);
      } else {
        run.appendChild(el("p", "st-none", "The run was not given this input: it had its default."));
      }
    }
    if (data.run && n.inside !== undefined) {
      run.appendChild(el("h3", null, "In run " + data.run.id));
      run.appendChild(el("p", n.inside > 0 ? "st-ok" : "st-none", n.inside > 0
        ? "Steps in it ran " + n.inside + " time" + (n.inside === 1 ? "" : "s") + "."
        : "No step in it ran. (The journal records steps: a branch taken that ran none of its steps looks the same.)"));
    }
    if (data.run && n.kind === "step") {
      run.appendChild(el("h3", null, "In run " + data.run.id));
      if (!n.run || n.run.length === 0) {
        run.appendChild(el("p", "st-none", "The journal has no execution of this step."));
      } else {
        n.run.forEach(function (f, i) { run.appendChild(fact(f, i)); });
        if (n.more) run.appendChild(el("p", null, "… and " + n.more + " more executions."));
      }
    }
  }

  document.querySelectorAll("[data-node]").forEach(function (g) {
    if (!(g instanceof SVGElement)) return;
    var id = g.getAttribute("data-node");
    g.addEventListener("click", function (ev) {
      ev.stopPropagation();
      show(id, g);
    });
    g.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        show(id, g);
      }
    });
  });
  document.getElementById("panel-close").addEventListener("click", function () {
    panel.hidden = true;
  });
})();
