"use strict";
(function () {
  // Every string from the run reaches the page through textContent or an attribute value,
  // never innerHTML: a model's reply is data.
  var DATA = JSON.parse(document.getElementById("run-data").textContent);
  var CASES = DATA.cases, PAGE = 200;
  var byId = new Map();
  CASES.forEach(function (c, i) { byId.set(c.id, i); });
  var SVG = "http://www.w3.org/2000/svg";

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }
  function pct(x) { return (100 * x).toFixed(1) + "%"; }
  function points(x) { return (x >= 0 ? "+" : "") + (100 * x).toFixed(1) + "pp"; }
  function num(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2); }
  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function json(value) { return JSON.stringify(value, null, 1); }

  function header() {
    var run = DATA.run, box = document.getElementById("run");
    box.appendChild(el("h1", null, run.title));
    if (run.dry_run) box.appendChild(el("p", { "class": "dry" }, (run.run_label || "DRY RUN") + ": no model was asked; this run certifies nothing"));
    var dl = el("dl", { "class": "run" });
    run.fields.forEach(function (f) { dl.appendChild(el("dt", null, f[0])); dl.appendChild(el("dd", null, f[1])); });
    box.appendChild(dl);
  }

  function heads(names) {
    var row = document.querySelector("#summary thead tr");
    names.forEach(function (name) { row.appendChild(el("th", null, name)); });
  }
  function pairing() {
    heads(["Scaffold", "Shared cases", "A scored higher", "B scored higher", "p (McNemar)", "p (Holm)", "Rate A", "Rate B", "B - A (95% interval)", "Verdict"]);
    var body = document.querySelector("#summary tbody");
    DATA.pairing.forEach(function (r) {
      var tr = el("tr", { "data-scaffold": r.scaffold });
      var cell = el("td"), b = el("button", { "class": "link", type: "button" }, r.scaffold);
      b.addEventListener("click", function () { setFilter("scaffold", r.scaffold); });
      cell.appendChild(b); tr.appendChild(cell);
      [["shared", r.shared], ["only-a", r.only_a], ["only-b", r.only_b], ["p", r.p_value.toFixed(4)],
       ["p-holm", r.p_holm.toFixed(4)], ["rate-a", r.shared ? pct(r.rate_a) : "-"], ["rate-b", r.shared ? pct(r.rate_b) : "-"],
       ["difference", r.shared ? points(r.difference) + " (" + points(r.interval[0]) + " to " + points(r.interval[1]) + ")" : "-"],
       ["verdict", r.verdict]].forEach(function (c) { tr.appendChild(el("td", { "class": c[0] }, c[1])); });
      body.appendChild(tr);
    });
  }
  function summary() {
    if (DATA.pairing) { pairing(); return; }
    heads(["Scaffold", "Status", "Pass rate", "95% interval", "Borderline", "Score / n", "Per tier", "Calibration", "Regression"]);
    var s = DATA.summary, body = document.querySelector("#summary tbody");
    Object.keys(s.scaffolds).forEach(function (name) {
      var r = s.scaffolds[name], tr = el("tr", { "data-scaffold": name });
      var cell = el("td"), b = el("button", { "class": "link", type: "button" }, name);
      b.addEventListener("click", function () { setFilter("scaffold", name); });
      cell.appendChild(b); tr.appendChild(cell);
      tr.appendChild(el("td", { "class": "status " + r.status }, r.status + (r.envelope ? " (size envelope: " + r.envelope + ")" : r.certified_up_to != null ? " up to " + r.certified_up_to : "")));
      tr.appendChild(el("td", { "class": "rate" }, r.n ? pct(r.pass_rate) : "-"));
      tr.appendChild(el("td", { "class": "interval" }, pct(r.interval_95[0]) + " - " + pct(r.interval_95[1])));
      tr.appendChild(el("td", { "class": "borderline" }, r.borderline ? "yes" : ""));
      tr.appendChild(el("td", { "class": "score" }, num(r.score) + " / " + r.n));
      tr.appendChild(el("td", { "class": "tiers" }, Object.keys(r.per_tier).map(function (t) {
        return t + " " + num(r.per_tier[t].score) + "/" + r.per_tier[t].n; }).join(", ")));
      var cal = r.calibration;
      tr.appendChild(el("td", { "class": "calibration" }, cal ? "mutants " + cal.mutants_rejected + "/" + cal.mutants + " rejected, alternatives " + cal.alternatives_accepted + "/" + cal.alternatives + " accepted" + (cal.misses ? ", " + cal.misses + " MISSES" : "") : ""));
      tr.appendChild(el("td", { "class": "regression" }, (s.regressions || []).indexOf(name) >= 0 ? "REGRESSION" : ""));
      body.appendChild(tr);
    });
    // What a status claims, from its plan's exact OC, as the reports say it under the status:
    // once for the scaffolds that share a plan, never where the run certifies nothing
    // because of what it asked (the quick level, chosen cases or tiers, a shard).
    var claims = document.getElementById("claims"), said = [];
    Object.keys(s.scaffolds).forEach(function (name) {
      var plan = s.scaffolds[name].plan;
      if (!plan || s.scaffolds[name].uncertified || said.indexOf(plan.oc) >= 0) return;
      said.push(plan.oc);
      var p = claims.appendChild(el("p", { "class": "claim" }));
      p.appendChild(el("strong", null, "What a status claims."));
      p.appendChild(document.createTextNode(" " + plan.oc));
    });
    var changes = document.getElementById("changes");
    if (s.previous_run_id) {
      changes.appendChild(el("p", null, "Against the previous comparable run " + s.previous_run_id + ":"));
      var ul = el("ul");
      (s.status_changes || []).forEach(function (c) { ul.appendChild(el("li", null, c.scaffold + ": " + c.before + " -> " + c.now + (c.direction ? " (" + c.direction + ")" : ""))); });
      (s.rate_drops || []).forEach(function (d) { ul.appendChild(el("li", null, d.scaffold + ": " + d.verdict)); });
      if (!ul.childNodes.length) ul.appendChild(el("li", null, "no change"));
      changes.appendChild(ul);
    }
  }

  function curves() {
    if (!DATA.summary) { document.getElementById("curves-title").hidden = true; return; }
    var box = document.getElementById("curves"), W = 220, H = 110, L = 30, B = 20;
    Object.keys(DATA.summary.scaffolds).forEach(function (name) {
      var r = DATA.summary.scaffolds[name];
      // Only a sweep draws a curve: the tiers' default sizes (kmp: 8, 10, 24) belong to
      // different kinds of case, so joined they would read as a size effect there is none of.
      // A size nothing was counted at has no rate to draw (the scaffold report says so).
      var sweep = (r.sweep || []).filter(function (p) { return p.n > 0; }).sort(function (a, b) { return a.size - b.size; });
      if (sweep.length < 2) return;
      var sizes = sweep.map(function (p) { return p.size; });
      var fig = el("figure", { "class": "curve", "data-scaffold": name });
      // The drawing's text alternative is its data: every size with its pass rate.
      var label = name + ": pass rate by " + r.size_unit + ", " + sweep.map(function (p) {
        return p.size + " " + pct(p.pass_rate); }).join(", ") + "; the CERTIFIED threshold " + pct(DATA.certify);
      var g = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": label });
      var lo = sizes[0], hi = sizes[sizes.length - 1];
      function x(s) { return L + (W - L - 8) * (s - lo) / (hi - lo); }
      function y(rate) { return 6 + (H - B - 6) * (1 - rate); }
      g.appendChild(svg("line", { "class": "axis", x1: L, y1: y(0), x2: W - 8, y2: y(0) }));
      g.appendChild(svg("line", { "class": "axis", x1: L, y1: y(0), x2: L, y2: y(1) }));
      g.appendChild(svg("line", { "class": "thr", x1: L, y1: y(DATA.certify), x2: W - 8, y2: y(DATA.certify) }));
      var points = sweep.map(function (p) { return [x(p.size), y(p.pass_rate)]; });
      g.appendChild(svg("polyline", { "class": "line", points: points.map(function (p) { return p.join(","); }).join(" ") }));
      points.forEach(function (p, i) { g.appendChild(svg("circle", { "class": "dot", cx: p[0], cy: p[1], r: 3, "data-size": sweep[i].size, "data-rate": sweep[i].pass_rate })); });
      [[lo, x(lo)], [hi, x(hi)]].forEach(function (t) { var tx = svg("text", { x: t[1], y: H - 6, "text-anchor": "middle" }); tx.textContent = String(t[0]); g.appendChild(tx); });
      [["100%", y(1) + 4], ["0%", y(0)]].forEach(function (t) { var tx = svg("text", { x: 2, y: t[1] }); tx.textContent = t[0]; g.appendChild(tx); });
      fig.appendChild(g);
      fig.appendChild(el("figcaption", null, name + ": pass rate by " + r.size_unit));
      box.appendChild(fig);
    });
    if (!box.childNodes.length) box.appendChild(el("p", { "class": "note" }, "No scaffold was swept over two sizes or more (--sizes): the tiers' own sizes draw no curve, their cases differ in kind."));
    // What each size's decision claims (its plan's exact OC: at the quick level a weak one),
    // as the scaffold report says under its size envelope.
    Object.keys(DATA.summary.scaffolds).forEach(function (name) {
      var r = DATA.summary.scaffolds[name];
      if (r.size_oc) box.appendChild(el("p", { "class": "note size-oc", "data-scaffold": name }, name + ": what a size's decision claims. " + r.size_oc));
      // A size decided on fewer inputs than its plan's cap claims that plan's OC read on
      // them: said wherever the sizes' own claim is (hunt ee: a quick run hid it).
      (r.sweep || []).forEach(function (point) {
        if (point.short_oc) box.appendChild(el("p", { "class": "note size-claim", "data-scaffold": name, "data-size": point.size }, name + " at " + inUnits(point.size, r.size_unit) + ": " + point.short_oc));
      });
    });
  }

  function grouped(n) { return n.toLocaleString("en-US"); }
  function usd(x) { return x === null || x === undefined ? "-" : "$" + x.toFixed(4); }
  function table(caption, names, rows, attrs) {
    // A caption names the table and a header cell each column, for a screen reader.
    var t = el("table", attrs), head = el("tr"), body = el("tbody");
    t.appendChild(el("caption", null, caption));
    names.forEach(function (n) { head.appendChild(el("th", { scope: "col" }, n)); });
    t.appendChild(el("thead")).appendChild(head);
    rows.forEach(function (cells) {
      var tr = el("tr");
      cells.forEach(function (c) { tr.appendChild(el("td", null, c)); });
      body.appendChild(tr);
    });
    t.appendChild(body);
    return t;
  }
  // A count before its noun ("12 vertices"), a measure named before its value ("text length 48"),
  // as the reports' sentences read (verification.catalog.sizes.in_units).
  function inUnits(sizes, unit) { return /\s/.test(unit.trim()) ? unit + " " + sizes : sizes + " " + unit; }
  function sized(size, unit, none) { return size === null || size === undefined ? none : inUnits(size, unit); }

  function statusAt(rows, size, field) {
    // " (FAILED)": the status of the size an envelope fails from, as the reports say it
    // (PARTIAL is no FAILED); "" where no row has that size.
    if (size === null || size === undefined || !rows) return "";
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].size === size && rows[i][field]) return " (" + rows[i][field] + ")";
    }
    return "";
  }

  function searches() {
    // Each envelope search's sizes in the order it tried them, as the scaffold report's
    // "Envelope search" section lists them; the curve above has them by size.
    var box = document.getElementById("searches");
    if (!DATA.summary) return;
    Object.keys(DATA.summary.scaffolds).forEach(function (name) {
      var r = DATA.summary.scaffolds[name], s = r.envelope_search;
      if (!s) return;
      var bounds = "certified up to " + sized(s.certified_up_to, r.size_unit, "no size tried") +
        ", fails from " + sized(s.fails_from, r.size_unit, s.tried.length ? "none of the sizes tried" : "no size tried") +
        statusAt(r.sweep, s.fails_from, "status");
      box.appendChild(table(name + ": envelope search, " + bounds,
        ["Order", "Size (" + r.size_unit + ")", "Decision", "Cases", "Pass rate", "Input tokens", "Output tokens", "USD"],
        s.tried.map(function (t, i) {
          return [i + 1, t.size, t.status + (t.ended_short ? ", ended short at " + t.n : "") +
                  (t.budget_limited ? " (budget-limited)" : ""), t.n, t.n ? pct(t.pass_rate) : "-",
                  grouped(t.input_tokens), grouped(t.output_tokens), usd(t.usd)];
        }), { "class": "search", "data-scaffold": name }));
      var said = s.statement.charAt(0).toUpperCase() + s.statement.slice(1) + ".";
      if (s.stopped) said += " " + s.stopped.charAt(0).toUpperCase() + s.stopped.slice(1) + ".";
      if (s.overshoot) said += " " + s.overshoot.charAt(0).toUpperCase() + s.overshoot.slice(1) + ".";
      box.appendChild(el("p", { "class": "note search-note", "data-scaffold": name }, said));
    });
  }

  function lifted() {
    // A --baseline none pair's lift (summary.json's lift; the compare page's own), with
    // the figures summary.md's "Lift over no scaffold" gives, drawn from its data.
    var lift = DATA.summary ? DATA.summary.lift : DATA.lift;
    if (!lift || !Object.keys(lift).length) return;
    var box = document.getElementById("lift"), estimated = false;
    document.getElementById("lift-title").hidden = false;
    function rate(x) { return x === null ? "-" : pct(x); }
    function pp(x) { return (x >= 0 ? "+" : "") + (100 * x).toFixed(1); }
    function tokens(x) { return x === null ? "-" : x.toLocaleString("en-US", { maximumFractionDigits: 0 }); }
    function envelope(up, from, stopped, unit, sizes, arm) {
      // An arm that tried sizes and failed at none of them (one INCOMPLETE, say) tried some.
      var tried = sizes.some(function (row) { return row.size !== null && row[arm]; });
      return "certified up to " + sized(up, unit, "no size") + ", fails from " +
        sized(from, unit, tried ? "none of the sizes tried" : "no size tried") +
        statusAt(sizes, from, arm) + (stopped ? " (" + stopped + ")" : "");
    }
    var first = lift[Object.keys(lift)[0]];
    box.appendChild(el("p", null, "A --baseline none pair: no scaffold in run " + first.bare_run + ", the scaffold in run " + first.scaffold_run + ", on the same cases."));
    Object.keys(lift).forEach(function (name) {
      var one = lift[name];
      var rows = one.sizes.concat([one.overall]).map(function (r) {
        estimated = estimated || r.tokens_estimated;
        var paired = r.difference !== null, iv = r.difference_interval_95;
        return [r.size === null ? "all" : r.size, r.shared, rate(r.bare_pass_rate), rate(r.scaffold_pass_rate),
          paired ? pp(r.difference) + " pp (" + pp(iv[0]) + " to " + pp(iv[1]) + ")" : "-",
          paired ? r.p_value.toFixed(4) : "-",
          paired && r.size !== null ? r.p_holm.toFixed(4) : "-",
          r.size !== null ? (r.bare_status || "-") + " / " + (r.scaffold_status || "-") : "-",
          tokens(r.bare_output_tokens_per_case) + " / " + tokens(r.scaffold_output_tokens_per_case),
          r.token_ratio === null ? "-" : r.token_ratio.toFixed(2) + "x"];
      });
      box.appendChild(table(name + ": " + one.sentence, ["Size (" + one.unit + ")", "Shared cases", "No scaffold", "Scaffold",
        "Scaffold - no scaffold (95% interval)", "p", "p (Holm)", "Status without / with",
        "Output tokens per case without / with", "Token ratio"], rows, { "class": "lift", "data-scaffold": name }));
      // A pair that swept no size has no envelope: "certified up to no size" read as a
      // failure beside an arm CERTIFIED on its level (hunt kk 6), as summary.md leaves it out.
      if (!one.sizes.length) return;
      var envelopes = el("ul", { "class": "envelopes", "data-scaffold": name });
      envelopes.appendChild(el("li", null, "With the scaffold: " + envelope(one.scaffold_certified_up_to, one.scaffold_fails_from, one.scaffold_stopped, one.unit, one.sizes, "scaffold_status")));
      envelopes.appendChild(el("li", null, "Without: " + envelope(one.bare_certified_up_to, one.bare_fails_from, one.bare_stopped, one.unit, one.sizes, "bare_status")));
      box.appendChild(envelopes);
    });
    box.appendChild(el("p", { "class": "note" }, "(Case scores on the cases both arms decided each size on; difference scaffold - no scaffold, " +
      "Newcombe's paired score interval; exact sign test (McNemar with one sample), two-sided, Holm-corrected across the sizes; " +
      "a size one arm did not try shows the other's own rate; output tokens of every attempt of a case" +
      (estimated ? ", estimated from reply lengths (four characters a token) where none was recorded" : "") + ".)"));
  }

  // Filters ----------------------------------------------------------------------------
  var FILTERS = ["scaffold", "outcome", "level", "tier", "size"];
  // The list draws a window of the shown cases, [first, rendered): more as the end is
  // scrolled to, earlier ones on demand, so a link deep into thousands draws few rows.
  var controls = {}, shown = [], first = 0, rendered = 0;
  function fillSelect(key) {
    var select = document.getElementById("f-" + key), seen = new Set();
    CASES.forEach(function (c) { seen.add(c[key] === null ? "" : String(c[key])); });
    Array.from(seen).sort(function (a, b) { return key === "size" || key === "level" ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0; })
      .forEach(function (v) { select.appendChild(el("option", { value: v }, v === "" ? "(none)" : v)); });
    select.addEventListener("change", apply);
    controls[key] = select;
  }
  function setFilter(key, value) {
    controls[key].value = value; apply();
    document.getElementById("filters").scrollIntoView();
  }
  function matches(c, query) {
    for (var i = 0; i < FILTERS.length; i++) {
      var want = controls[FILTERS[i]].value;
      if (want === "*") continue;
      if (want === "!passed") { if (c.outcome === "passed" || c.outcome === "both passed") return false; continue; }
      var have = c[FILTERS[i]] === null ? "" : String(c[FILTERS[i]]);
      if (have !== want) return false;
    }
    return !query || c.id.toLowerCase().indexOf(query) >= 0 || c.message.toLowerCase().indexOf(query) >= 0;
  }
  function apply() {
    var query = controls.search.value.trim().toLowerCase();
    shown = [];
    for (var i = 0; i < CASES.length; i++) if (matches(CASES[i], query)) shown.push(i);
    from(0);
    document.getElementById("shown").textContent = shown.length + " of " + CASES.length + " cases";
  }
  function from(start) {
    document.getElementById("cases").textContent = "";
    first = rendered = start; more(); earlier();
  }
  function earlier() {
    var button = document.getElementById("earlier");
    button.hidden = first === 0;
    button.textContent = "show " + Math.min(first, PAGE) + " earlier cases (" + first + " before these)";
  }
  function showEarlier() {
    var list = document.getElementById("cases"), start = Math.max(0, first - PAGE);
    var fragment = document.createDocumentFragment();
    for (var i = start; i < first; i++) fragment.appendChild(caseRow(CASES[shown[i]]));
    list.insertBefore(fragment, list.firstChild);
    first = start; earlier();
  }
  function more() {
    var list = document.getElementById("cases"), end = Math.min(shown.length, rendered + PAGE);
    var fragment = document.createDocumentFragment();
    for (; rendered < end; rendered++) fragment.appendChild(caseRow(CASES[shown[rendered]]));
    list.appendChild(fragment);
    document.getElementById("more").textContent = rendered < shown.length ? "scroll for more (" + (shown.length - rendered) + " left)" : "";
  }

  // One case ---------------------------------------------------------------------------
  function caseRow(c) {
    var d = el("details", { "class": "case", "data-id": c.id, "data-outcome": c.outcome });
    // A summary is the toggle itself: a link inside it would be a control in a control
    // (which keyboards and screen readers cannot reach apart), so the link opens the body.
    var s = el("summary");
    s.appendChild(el("span", { "class": "id" }, c.id));
    // A case asked several times shows its score, not only its first failing sample's outcome.
    var score = c.samples > 1 ? ", " + c.samples_passed + " of " + c.samples + " samples passed" : "";
    s.appendChild(el("span", { "class": "outcome " + c.outcome.replace(/ /g, "-") }, c.outcome + (c.level !== null ? " (level " + c.level + ")" : "") + score));
    s.appendChild(el("span", null, c.tier + (c.size !== null ? ", size " + c.size : "")));
    s.appendChild(el("span", { "class": "msg" }, c.message));
    d.appendChild(s);
    d.addEventListener("toggle", function () {
      if (!d.open || d.childNodes.length !== 1) return;
      var b = caseBody(c);
      b.insertBefore(el("p", { "class": "link" }), b.firstChild)
        .appendChild(el("a", { href: "#" + encodeURIComponent(c.id) }, "link to case " + c.id));
      // A box that scrolls must be reachable by keyboard to be scrolled.
      b.querySelectorAll("pre").forEach(function (pre) { pre.tabIndex = 0; });
      d.appendChild(b);
    });
    return d;
  }
  function block(parent, title, text) { parent.appendChild(el("h3", null, title)); parent.appendChild(el("pre", null, text)); }
  function answer(c) {
    // c: a case, or one run's side of a case in a comparison (answer and diff alike)
    var box = el("div", { "class": "field answer" });
    if (c.answer === null || typeof c.answer !== "object" || Array.isArray(c.answer)) {
      box.appendChild(el("span", { "class": "k" }, "answer"));
      box.appendChild(el("pre", { "class": c.answer === null ? "" : "diff" }, c.answer === null ? "(none parsed)" : json(c.answer)));
      return box;
    }
    var keys = Object.keys(c.answer).concat(Object.keys(c.diff).filter(function (k) { return !own(c.answer, k); }));
    keys.forEach(function (k) {
      box.appendChild(el("span", { "class": "k" }, k));
      var v = c.answer[k], mark = own(c.diff, k) ? c.diff[k] : undefined, pre = el("pre");
      if (!own(c.answer, k)) { pre.className = "diff"; pre.textContent = "(missing)"; }
      else if (mark === undefined) pre.textContent = json(v);
      else if (mark === null || !Array.isArray(v)) { pre.className = "diff"; pre.textContent = json(v); }
      else {
        pre.appendChild(document.createTextNode("["));
        v.forEach(function (item, i) {
          if (i) pre.appendChild(document.createTextNode(", "));
          pre.appendChild(el("span", mark.indexOf(i) >= 0 ? { "class": "diff" } : null, JSON.stringify(item)));
        });
        pre.appendChild(document.createTextNode("]"));
      }
      box.appendChild(pre);
    });
    return box;
  }
  function raws(parent, c, attempts) {
    attempts.forEach(function (a) {
      var raw = el("details", { "class": "raw" });
      raw.appendChild(el("summary", null, "Raw reply: sample " + (a.sample + 1) + ", attempt " + a.attempt + ", " + a.outcome + (a.level !== null ? " (level " + a.level + ")" : "") + ", " + a.chars + " characters, " + (a.source || "live")));
      if (a.reason) raw.appendChild(el("p", null, a.reason));
      raw.appendChild(el("pre", { "class": "bidi" }, a.raw === null ? "(no text)" : a.raw));
      if (a.cut) raw.appendChild(el("p", { "class": "note" }, "Shown: the first " + a.raw.length + " of " + a.chars + " characters. The journal holds the reply: " + a.journal + " (case " + c.id + ")."));
      parent.appendChild(raw);
    });
  }
  function pairBody(c) {
    var b = el("div", { "class": "body" });
    block(b, "Input", json(c.input));
    block(b, "Expected (the reference's answer)", json(c.expected));
    var sides = el("div", { "class": "sides" });
    [["A", c.pair.a], ["B", c.pair.b]].forEach(function (p) {
      var side = el("div", { "class": "side side-" + p[0].toLowerCase() });
      side.appendChild(el("h3", null, "Run " + p[0] + ": " + p[1].outcome + (p[1].level !== null ? " (level " + p[1].level + ")" : "")));
      side.appendChild(el("p", null, "Validator: " + p[1].message));
      side.appendChild(el("p", { "class": "note" }, "Parsed answer (marked: differs from the reference's answer)"));
      side.appendChild(answer(p[1]));
      raws(side, c, p[1].attempts);
      sides.appendChild(side);
    });
    b.appendChild(sides);
    return b;
  }
  function caseBody(c) {
    if (c.pair) return pairBody(c);
    var b = el("div", { "class": "body" });
    b.appendChild(el("p", null, "Validator: " + c.message));
    b.appendChild(el("p", { "class": "note" }, "Samples " + c.samples + ", attempts " + c.attempts.length + ", tokens in " + c.tokens.input + " / out " + c.tokens.output + ", source " + c.source + (c.latency_s !== null ? ", " + c.latency_s.toFixed(2) + " s" : "")));
    block(b, "Input", json(c.input));
    block(b, "Expected (the reference's answer)", json(c.expected));
    b.appendChild(el("h3", null, "Parsed answer (marked: differs from the reference's answer; another right answer may differ too)"));
    b.appendChild(answer(c));
    raws(b, c, c.attempts);
    return b;
  }

  function openHash() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }  // "#%E0%A4%A" names no case
    var i = byId.get(id);
    if (i === undefined) return;
    var at = shown.indexOf(i);
    if (at < 0) { FILTERS.forEach(function (k) { controls[k].value = "*"; }); controls.search.value = ""; apply(); at = shown.indexOf(i); }
    if (at < first || at >= rendered) from(Math.max(0, at - 5));
    var node = document.querySelector('details.case[data-id="' + CSS.escape(id) + '"]');
    document.querySelectorAll("details.case.target").forEach(function (n) { n.classList.remove("target"); });
    node.classList.add("target"); node.open = true;
    node.scrollIntoView();
  }

  header(); summary(); lifted(); curves(); searches();
  // Code mode's section is written with the page: its boxes of text are reached as the cases' are.
  document.querySelectorAll("#programs ~ details pre").forEach(function (pre) { pre.tabIndex = 0; });
  FILTERS.forEach(fillSelect);
  controls.search = document.getElementById("f-search");
  controls.search.addEventListener("input", apply);
  document.getElementById("earlier").addEventListener("click", showEarlier);
  apply();
  new IntersectionObserver(function (entries) { if (entries[0].isIntersecting && rendered < shown.length) more(); })
    .observe(document.getElementById("more"));
  window.addEventListener("hashchange", openHash);
  openHash();
  document.body.setAttribute("data-ready", "true");
})();
