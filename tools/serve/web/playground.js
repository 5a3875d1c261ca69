// jobspec playground: sends what is typed to the server's API (docs/PLAYGROUND.md) and shows
// what comes back. The whole state lives in the address's #fragment, so a link shows the same.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const DEBOUNCE_MS = 120;
  const VIEWS = ["output", "tokens", "tree", "graph", "match"];

  let languages = [];
  let commonOptions = [];
  const state = { lang: "", texts: {}, options: {}, r: null, view: "output" };
  let generation = 0;
  let inflight = null;
  let timer = null;
  const explanations = new Map();

  // ---- small DOM helpers -------------------------------------------------------------

  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role")
        node.setAttribute(key, value);
      else node[key] = value;
    }
    for (const child of children)
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  const language = () => languages.find((l) => l.name === state.lang) || languages[0];

  // ---- byte offsets (the API's) to string indices (JavaScript's UTF-16) ------------------

  function byteIndexer(text) {
    const bytes = [];
    let b = 0;
    for (let i = 0; i < text.length; i++) {
      bytes.push(b);
      const c = text.charCodeAt(i);
      if (c < 0x80) b += 1;
      else if (c < 0x800) b += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        bytes.push(b); // the low surrogate: same code point
        b += 4;
        i++;
      } else b += 3;
    }
    bytes.push(b);
    return (offset) => {
      let lo = 0, hi = bytes.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (bytes[mid] < offset) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
  }

  // ---- an editor: a textarea over a backdrop that draws underlines and highlights -------

  class Editor {
    constructor(textarea, backdrop) {
      this.textarea = textarea;
      this.backdrop = backdrop;
      this.marks = [];
      this.highlight = null;
      textarea.addEventListener("scroll", () => { backdrop.scrollTop = textarea.scrollTop; });
    }

    get value() { return this.textarea.value; }
    set value(text) { this.textarea.value = text; this.setMarks([]); }

    // marks: [{offset, length, cls, attrs}] in bytes of the text.
    setMarks(marks) { this.marks = marks; this.render(); }
    setHighlight(mark) { this.highlight = mark; this.render(); }

    render() {
      const text = this.textarea.value;
      const index = byteIndexer(text);
      const spans = [];
      for (const m of this.marks.concat(this.highlight ? [this.highlight] : [])) {
        const from = index(m.offset);
        let to = index(m.offset + m.length);
        if (to <= from) to = from + 1; // a point: mark the character there, or the end
        spans.push({ from, to, cls: m.cls, attrs: m.attrs || {} });
      }
      const cuts = new Set([0, text.length]);
      for (const s of spans) { cuts.add(Math.min(s.from, text.length)); cuts.add(Math.min(s.to, text.length)); }
      const points = [...cuts].sort((a, b) => a - b);
      const out = [];
      for (let i = 0; i + 1 < points.length; i++) {
        const [a, b] = [points[i], points[i + 1]];
        const covering = spans.filter((s) => s.from <= a && s.to >= b);
        const piece = text.slice(a, b);
        if (covering.length === 0) { out.push(document.createTextNode(piece)); continue; }
        const span = el("span", { class: covering.map((s) => s.cls).join(" ") }, piece);
        for (const s of covering) for (const [k, v] of Object.entries(s.attrs)) span.setAttribute(k, v);
        out.push(span);
      }
      // Marks at the very end (a missing closing bracket) underline a space after the text.
      const atEnd = spans.filter((s) => s.to > text.length);
      if (atEnd.length) {
        const span = el("span", { class: atEnd.map((s) => s.cls).join(" ") }, "\u00a0");
        for (const s of atEnd) for (const [k, v] of Object.entries(s.attrs)) span.setAttribute(k, v);
        out.push(span);
      }
      out.push(document.createTextNode("\n\u00a0"));
      this.backdrop.replaceChildren(...out);
      this.backdrop.scrollTop = this.textarea.scrollTop;
    }

    select(offset, length) {
      const index = byteIndexer(this.textarea.value);
      this.textarea.focus();
      this.textarea.setSelectionRange(index(offset), index(offset + length));
    }
  }

  let editor, rEditor;

  // ---- the API ---------------------------------------------------------------------------

  async function post(path, body, signal) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    const json = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw new Error(json.error || `HTTP ${response.status}`);
    return json;
  }

  async function explanation(code) {
    if (!explanations.has(code))
      explanations.set(code, fetch(`/api/v1/explain/${encodeURIComponent(code)}`)
        .then((r) => (r.ok ? r.json() : { explanation: "" }))
        .then((j) => j.explanation || "")
        .catch(() => ""));
    return explanations.get(code);
  }

  // ---- the state in the address ----------------------------------------------------------

  function optionSpecs() { return language().options.concat(commonOptions); }

  function fragment() {
    const p = new URLSearchParams();
    p.set("lang", state.lang);
    for (const spec of optionSpecs()) {
      const v = state.options[spec.name];
      if (v !== undefined && v !== "" && v !== false) p.set(spec.name, v === true ? "1" : v);
    }
    p.set("view", state.view);
    p.set("text", editor.value);
    if (language().match && rEditor.value) p.set("r", rEditor.value);
    return "#" + p.toString();
  }

  function saveState() {
    const hash = fragment();
    if (location.hash !== hash) history.replaceState(null, "", hash);
    $("permalink").href = location.href;
  }

  function loadState(hash) {
    const p = new URLSearchParams(hash.replace(/^#/, ""));
    const lang = languages.find((l) => l.name === p.get("lang")) || languages[0];
    state.lang = lang.name;
    state.options = {};
    for (const spec of lang.options.concat(commonOptions)) {
      if (!p.has(spec.name)) continue;
      const v = p.get(spec.name);
      if (spec.kind === "flag") state.options[spec.name] = v === "1" || v === "true";
      else if (spec.kind === "choice" && spec.choices.includes(v)) state.options[spec.name] = v;
      else if (spec.kind === "text") state.options[spec.name] = v;
    }
    state.view = VIEWS.includes(p.get("view")) ? p.get("view") : "output";
    state.texts[lang.name] = p.has("text") ? p.get("text") : lang.example;
    state.r = p.has("r") ? p.get("r") : null;
  }

  // ---- controls ----------------------------------------------------------------------------

  function buildLanguagePicker() {
    const select = $("language");
    select.replaceChildren(...languages.map((l) => el("option", { value: l.name, text: l.title })));
    select.addEventListener("change", () => {
      state.texts[state.lang] = editor.value;
      state.lang = select.value;
      state.options = {};
      showLanguage();
      update(0);
    });
  }

  function buildOptions() {
    const box = $("options");
    const controls = [];
    for (const spec of optionSpecs()) {
      const id = `option-${spec.name}`;
      const label = el("label", { htmlFor: id }, el("code", { text: spec.cli }), " ", spec.label);
      let input;
      if (spec.kind === "flag") {
        input = el("input", { type: "checkbox", id, checked: !!state.options[spec.name] });
        input.addEventListener("change", () => { state.options[spec.name] = input.checked; update(0); });
        controls.push(el("span", { class: "option" }, input, label));
        continue;
      }
      if (spec.kind === "choice") {
        input = el("select", { id }, ...spec.choices.map((c) => el("option", { value: c, text: c })));
        input.value = state.options[spec.name] || spec.choices[0];
        input.addEventListener("change", () => { state.options[spec.name] = input.value; update(0); });
      } else {
        input = el("input", { type: "text", id, value: state.options[spec.name] || "", spellcheck: false });
        input.addEventListener("input", () => { state.options[spec.name] = input.value; update(); });
      }
      controls.push(el("span", { class: "option" }, label, input));
    }
    box.replaceChildren(...controls);
  }

  function applicable(view) {
    const l = language();
    return view === "output" || (view === "tokens" && l.grammar) || (view === "tree" && l.grammar) ||
      (view === "graph" && l.graph) || (view === "match" && l.match);
  }

  function showTabs() {
    if (!applicable(state.view)) state.view = "output";
    for (const tab of document.querySelectorAll("[role=tab]")) {
      const view = tab.dataset.view;
      const selected = view === state.view;
      tab.hidden = !applicable(view);
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      $(`panel-${view}`).hidden = !selected;
    }
  }

  function buildTabs() {
    const tabs = [...document.querySelectorAll("[role=tab]")];
    for (const tab of tabs) {
      tab.addEventListener("click", () => { state.view = tab.dataset.view; showTabs(); update(0); });
      tab.addEventListener("keydown", (event) => {
        const visible = tabs.filter((t) => !t.hidden);
        const at = visible.indexOf(tab);
        let next = null;
        if (event.key === "ArrowRight") next = visible[(at + 1) % visible.length];
        else if (event.key === "ArrowLeft") next = visible[(at - 1 + visible.length) % visible.length];
        else if (event.key === "Home") next = visible[0];
        else if (event.key === "End") next = visible[visible.length - 1];
        if (!next) return;
        event.preventDefault();
        next.focus();
        next.click();
      });
    }
  }

  function showLanguage() {
    const l = language();
    $("language").value = l.name;
    $("text-label").textContent = l.title;
    $("cli").replaceChildren("Same as ", el("code", { text: l.cli }), ".");
    editor.value = state.texts[l.name] ?? l.example;
    editor.textarea.parentElement.classList.toggle("one-line", !!l.grammar);
    $("r-editor").hidden = !l.match;
    if (l.match && state.r === null) state.r = l.match_example;
    rEditor.value = l.match ? state.r || "" : "";
    // A forecast's picture is its schedule, which jobspec draws itself (no DOT).
    const schedule = l.name === "forecast";
    $("tab-graph").textContent = schedule ? "Schedule" : "Resource graph";
    $("graph-caption").replaceChildren(...(schedule
      ? ["When and where each pending job starts, as ", el("code", { text: "jobspec forecast --svg" }), " draws it"]
      : ["The resources asked for, as ", el("code", { text: "jobspec graph" }), " draws them"]));
    $("graph-dot-box").hidden = schedule;
    buildOptions();
    showTabs();
  }

  // ---- showing results -------------------------------------------------------------------

  function textOf(file) {
    return file === "R" ? rEditor.value : file === "free" ? $("free").value : editor.value;
  }

  function columns(d) {
    if (d.line === undefined) return d.pointer ? `at ${d.pointer}` : "";
    const text = textOf(d.file);
    const index = byteIndexer(text);
    const range = text.slice(index(d.offset), index(d.offset + d.length));
    const width = [...range].length;
    const where = width > 1 ? `line ${d.line}, columns ${d.column}–${d.column + width - 1}`
      : `line ${d.line}, column ${d.column}`;
    return d.pointer ? `${where} (${d.pointer})` : where;
  }

  function markdown(text) {
    const box = el("div", { class: "explain" });
    const parts = text.split(/^```[a-z]*\n?/m);
    parts.forEach((part, i) => {
      if (i % 2 === 1) { box.append(el("pre", {}, el("code", { text: part.replace(/\n$/, "") }))); return; }
      for (const para of part.split(/\n\s*\n/)) {
        const trimmed = para.trim();
        if (!trimmed) continue;
        const heading = /^#+\s+(.*)$/.exec(trimmed);
        if (heading) { box.append(el("h4", { text: heading[1] })); continue; }
        const p = el("p");
        trimmed.split(/(`[^`]+`)/).forEach((bit) => {
          p.append(bit.startsWith("`") && bit.endsWith("`") && bit.length > 1
            ? el("code", { text: bit.slice(1, -1) }) : document.createTextNode(bit));
        });
        box.append(p);
      }
    });
    return box;
  }

  function showDiagnostics(diagnostics) {
    const list = $("diagnostics");
    const items = diagnostics.map((d, i) => {
      const where = columns(d);
      const item = el("li", { class: `diagnostic ${d.severity}`, id: `diagnostic-${i}` });
      item.append(el("p", {},
        el("span", { class: "severity", text: d.severity }), " ",
        el("code", { class: "code", text: `[${d.code}]` }),
        d.file === "R" ? " in R: " : d.file === "free" ? " in the free R: " : ": ",
        d.message));
      if (d.offset !== undefined && d.file !== "free") {
        const button = el("button", { type: "button", class: "where", text: where,
          "aria-label": `Select ${where} in the ${d.file === "R" ? "R" : "text"}` });
        button.addEventListener("click", () => (d.file === "R" ? rEditor : editor).select(d.offset, d.length));
        item.append(el("p", {}, button));
      } else if (where) {
        item.append(el("p", { text: where }));
      }
      if (d.help) item.append(el("p", { class: "help", text: `help: ${d.help}` }));
      const details = el("details", { open: i === 0 },
        el("summary", { text: `What ${d.code} means (jobspec explain ${d.code})` }));
      explanation(d.code).then((text) => details.append(markdown(text)));
      item.append(details);
      return item;
    });
    list.replaceChildren(...items);
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const warnings = diagnostics.length - errors;
    const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    $("summary").textContent = diagnostics.length === 0 ? "No problems."
      : [errors ? plural(errors, "error") : "", warnings ? plural(warnings, "warning") : ""]
        .filter(Boolean).join(", ") + ".";

    const marks = (file) => diagnostics
      .map((d, i) => ({ d, i }))
      .filter(({ d }) => d.offset !== undefined && (d.file === "R") === (file === "R"))
      .map(({ d, i }) => ({
        offset: d.offset, length: d.length, cls: `mark-${d.severity}`,
        attrs: { "data-diagnostic": String(i), "data-code": d.code, "data-columns": columns(d) },
      }));
    editor.setMarks(marks("text"));
    rEditor.setMarks(marks("R"));
  }

  function showPicture(box, dotBox, result, none) {
    $(dotBox).textContent = result.dot || "";
    const target = $(box);
    if (!result.svg) {
      target.replaceChildren(el("p", { text: result.graphviz || none }));
      return;
    }
    const doc = new DOMParser().parseFromString(result.svg, "image/svg+xml");
    const svg = doc.documentElement;
    if (svg.nodeName !== "svg") { target.replaceChildren(el("p", { text: none })); return; }
    for (const bad of svg.querySelectorAll("script, foreignObject")) bad.remove();
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", box === "tree" ? "parse tree"
      : language().name === "forecast" ? "schedule" : "resource graph");
    target.replaceChildren(document.importNode(svg, true));
  }

  function showTokens(tokens) {
    const rows = tokens.map((t) => {
      const where = `bytes ${t.offset}–${t.offset + t.length}, line ${t.line}, column ${t.column}`;
      const row = el("tr", { tabIndex: 0, title: where, "data-offset": String(t.offset),
        "data-length": String(t.length) },
        el("td", { text: t.index }), el("td", { text: t.type }), el("td", { text: JSON.stringify(t.text) }),
        el("td", { text: `${t.line}:${t.column}` }), el("td", { text: `${t.offset}–${t.offset + t.length}` }));
      const on = () => {
        editor.setHighlight({ offset: t.offset, length: t.length, cls: "mark-token" });
        $("token-range").textContent = `${t.type} ${JSON.stringify(t.text)}: ${where}`;
      };
      const off = () => editor.setHighlight(null);
      row.addEventListener("mouseenter", on);
      row.addEventListener("focus", on);
      row.addEventListener("mouseleave", off);
      row.addEventListener("blur", off);
      return row;
    });
    $("tokens").tBodies[0].replaceChildren(...rows);
  }

  function showMatch(result) {
    if (!result) {
      $("verdict").textContent = "Type or paste an R (RFC 20) to see whether this jobspec fits it.";
      $("allocation").textContent = "";
      return;
    }
    if (result.fits) {
      $("verdict").textContent = "Fits. One allocation (first fit, as jobspec match prints it):";
      $("allocation").textContent = result.output;
      return;
    }
    $("verdict").textContent = "Does not fit: " +
      (result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.message} [${d.code}]`)
        .join("; ") || "see the diagnostics");
    $("allocation").textContent = "";
  }

  // ---- one update: every request for the current state -----------------------------------

  function update(delay = DEBOUNCE_MS) {
    saveState();
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  }

  async function run() {
    const mine = ++generation;
    if (inflight) inflight.abort();
    inflight = new AbortController();
    const signal = inflight.signal;
    const l = language();
    const body = { language: l.name, text: editor.value, options: {} };
    for (const spec of optionSpecs()) {
      const v = state.options[spec.name];
      if (spec.kind === "flag" && v) body.options[spec.name] = true;
      else if (spec.kind !== "flag" && v) body.options[spec.name] = v;
    }
    const view = state.view;
    const wantsMatch = l.match && rEditor.value.trim() !== "";
    const common = {};
    for (const spec of commonOptions) if (body.options[spec.name]) common[spec.name] = true;
    if (body.options.dialect) common.dialect = body.options.dialect;
    $("results").setAttribute("aria-busy", "true");
    try {
      const [compiled, extra, matched] = await Promise.all([
        post("/api/v1/compile", body, signal),
        view === "tokens" || view === "tree" || view === "graph"
          ? post(`/api/v1/${view}`, body, signal) : null,
        wantsMatch ? post("/api/v1/match",
          { jobspec: editor.value, R: rEditor.value, free: $("free").value, options: common }, signal)
          : null,
      ]);
      if (mine !== generation) return;
      $("output").textContent = compiled.status === 0 ? compiled.output
        : "(nothing: the input has errors, see Diagnostics)";
      const rProblems = matched
        ? matched.diagnostics.filter((d) => d.file === "R" || d.file === "free") : [];
      showDiagnostics(compiled.diagnostics.concat(rProblems));
      if (view === "tokens") showTokens(extra.tokens);
      if (view === "tree") showPicture("tree", "tree-dot", extra, "No parse tree: the lexer stopped first.");
      if (view === "graph") showPicture("graph", "graph-dot", extra, "No graph: the input has errors.");
      showMatch(matched);
      document.body.dataset.generation = String(mine);
    } catch (error) {
      if (error.name === "AbortError") return;
      $("summary").textContent = `The server did not answer: ${error.message}`;
    } finally {
      if (mine === generation) $("results").removeAttribute("aria-busy");
    }
  }

  // ---- start -------------------------------------------------------------------------------

  async function start() {
    editor = new Editor($("text"), $("text-backdrop"));
    rEditor = new Editor($("r"), $("r-backdrop"));
    const listing = await fetch("/api/v1/languages").then((r) => r.json());
    languages = listing.languages;
    commonOptions = listing.common_options;
    buildLanguagePicker();
    buildTabs();
    loadState(location.hash);
    showLanguage();
    editor.textarea.addEventListener("input", () => { editor.render(); update(); });
    rEditor.textarea.addEventListener("input", () => { state.r = rEditor.value; rEditor.render(); update(); });
    $("free").addEventListener("input", () => update());
    window.addEventListener("hashchange", () => {
      if (location.hash === fragment()) return;
      loadState(location.hash);
      showLanguage();
      update(0);
    });
    update(0);
  }

  document.addEventListener("DOMContentLoaded", () => {
    start().catch((error) => { $("summary").textContent = `Cannot start: ${error.message}`; });
  });
})();
