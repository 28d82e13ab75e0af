// The rulekit calculator: a tile pad, the API's answers, and the state in the URL.
// Plain JavaScript, no build step. No rule lives here: every value comes from the server.
"use strict";

const SUITS = { m: "萬", p: "筒", s: "條" };
const NUMS = "一二三四五六七八九";
const HONORS = "東南西北中發白";
const FLOWERS = "春夏秋冬梅蘭竹菊";
const OVERLAY = "__overlay__";
const WIN_BY = ["self_draw", "kong_draw", "discard", "last_draw"];

const state = {
  ruleset: "tianjin", overlay: "", overlayOk: false, players: 4,
  target: "hand", hand: [], win: "", indicator: "", melds: [], flowers: [], history: [],
  by: "self_draw", heavenly: false, dhun: false,
  dealer: 0, sits: false, winner: 0, discarder: 1, chan: false, stake: 1,
  pulls: [0, 0, 0, 0], kongs: [[0, 0], [0, 0], [0, 0], [0, 0]],
};

const $ = (id) => document.getElementById(id);

function tileLabel(t) {
  const r = Number(t[0]), s = t[1];
  if (s === "z") return HONORS[r - 1] || t;
  if (s === "f") return FLOWERS[r - 1] || t;
  return NUMS[r - 1] + (SUITS[s] || "");
}

function tileEl(t, extra) {
  const el = document.createElement("span");
  el.className = "t " + t[1] + (extra ? " " + extra : "");
  el.dataset.tile = t;
  el.title = t;
  el.textContent = tileLabel(t);
  return el;
}

// "46m123s" -> ["4m","6m","1s","2s","3s"]; anything else is ignored
function parseTiles(text) {
  const out = [];
  let digits = [];
  for (const c of (text || "").replace(/\s+/g, "")) {
    if (c >= "1" && c <= "9") digits.push(c);
    else if ("mpszf".includes(c)) { digits.forEach((d) => out.push(d + c)); digits = []; }
    else digits = [];
  }
  return out.filter((t) => !(t[1] === "z" && Number(t[0]) > 7) && !(t[1] === "f" && Number(t[0]) > 8));
}

function notation(tiles) {
  const order = "mpszf";
  const sorted = [...tiles].sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || a[0] - b[0]);
  let out = "", run = "", suit = "";
  for (const t of sorted) {
    if (t[1] !== suit && run) { out += run + suit; run = ""; }
    suit = t[1]; run += t[0];
  }
  return run ? out + run + suit : out;
}

// -- the URL holds the whole state -------------------------------------------------------
function toQuery() {
  const q = new URLSearchParams();
  if (state.ruleset === OVERLAY) q.set("overlay", state.overlay);
  else q.set("ruleset", state.ruleset);
  if (state.hand.length) q.set("hand", notation(state.hand));
  if (state.win) q.set("win", state.win);
  if (state.indicator) q.set("indicator", state.indicator);
  if (state.flowers.length) q.set("flowers", notation(state.flowers));
  for (const kind of ["pung", "kong", "ckong"]) {
    const ms = state.melds.filter((m) => m.key === kind).map((m) => m.tiles);
    if (ms.length) q.set(kind, ms.join(","));
  }
  if (state.by !== "self_draw") q.set("by", state.by);
  if (state.heavenly) q.set("heavenly", "1");
  if (state.dhun) q.set("dhun", "1");
  if (state.dealer) q.set("dealer", state.dealer);
  if (state.sits) q.set("sits", "1");
  if (state.winner !== 0) q.set("winner", state.winner === null ? "draw" : state.winner);
  if (state.by === "discard") q.set("discarder", state.discarder);
  if (state.pulls.some((p) => p)) q.set("pulls", state.pulls.join(","));
  if (state.kongs.some((k) => k[0] || k[1])) q.set("kongs", state.kongs.map((k) => k.join(".")).join(","));
  if (state.chan) q.set("chan", "1");
  if (state.stake !== 1) q.set("stake", state.stake);
  return q.toString();
}

function fromQuery(search) {
  const q = new URLSearchParams(search);
  const num = (k, d) => (q.has(k) && !isNaN(Number(q.get(k))) ? Number(q.get(k)) : d);
  if (q.has("overlay")) { state.ruleset = OVERLAY; state.overlay = q.get("overlay"); }
  else if (q.has("ruleset")) state.ruleset = q.get("ruleset");
  state.hand = parseTiles(q.get("hand"));
  state.win = parseTiles(q.get("win"))[0] || "";
  state.indicator = parseTiles(q.get("indicator"))[0] || "";
  state.flowers = [...new Set(parseTiles(q.get("flowers")).filter((t) => t[1] === "f"))];
  state.melds = [];
  for (const key of ["pung", "kong", "ckong"]) {
    for (const tiles of (q.get(key) || "").split(",").filter(Boolean)) {
      if (parseTiles(tiles).length) state.melds.push(meld(key, parseTiles(tiles)[0]));
    }
  }
  state.by = WIN_BY.includes(q.get("by")) ? q.get("by") : "self_draw";
  state.heavenly = q.get("heavenly") === "1";
  state.dhun = q.get("dhun") === "1";
  state.dealer = num("dealer", 0);
  state.sits = q.get("sits") === "1";
  state.winner = q.get("winner") === "draw" ? null : num("winner", 0);
  state.discarder = num("discarder", 1);
  state.chan = q.get("chan") === "1";
  state.stake = num("stake", 1);
  const pulls = (q.get("pulls") || "").split(",").map(Number);
  state.pulls = [0, 1, 2, 3].map((i) => pulls[i] || 0);
  const kongs = (q.get("kongs") || "").split(",").map((k) => k.split(".").map(Number));
  state.kongs = [0, 1, 2, 3].map((i) => [(kongs[i] || [])[0] || 0, (kongs[i] || [])[1] || 0]);
}

function meld(key, t) {
  const n = key === "pung" ? 3 : 4;
  return { key, tiles: t[0].repeat(n) + t[1], kind: key === "pung" ? "pung" : "kong",
           concealed: key === "ckong", tile: t };
}

// -- the hand as the API wants it ----------------------------------------------------------
function handDoc(withWin) {
  const doc = { indicator: state.indicator, hand: notation(state.hand),
                melds: state.melds.map((m) => ({ kind: m.kind, tiles: m.tiles, concealed: m.concealed })) };
  if (state.flowers.length) doc.flowers = notation(state.flowers);
  if (withWin) Object.assign(doc, { win_tile: state.win, win_by: state.by,
                                    heavenly: state.heavenly, discarded_hun: state.dhun });
  return doc;
}

function rulesetPart() {
  return state.ruleset === OVERLAY ? { ruleset_yaml: state.overlay } : { ruleset: state.ruleset };
}

const needed = () => 13 - 3 * state.melds.length;

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                body: JSON.stringify(body) });
  let data;
  try { data = await r.json(); } catch (e) { data = { error: { field: "", message: r.statusText } }; }
  return { ok: r.ok, status: r.status, data };
}

function errorText(data) {
  const e = (data && data.error) || {};
  return (e.field ? e.field + ": " : "") + (e.message || "error");
}

// -- drawing ---------------------------------------------------------------------------------
function drawSlots() {
  const fill = (id, tiles, onClick) => {
    const box = $(id);
    box.replaceChildren(...tiles.map((t, i) => {
      const el = tileEl(t);
      el.setAttribute("role", "button");
      el.addEventListener("click", () => onClick(i));
      return el;
    }));
  };
  fill("hand-tiles", state.hand, (i) => { state.hand.splice(i, 1); changed(); });
  fill("win-tiles", state.win ? [state.win] : [], () => { state.win = ""; changed(); });
  fill("indicator-tiles", state.indicator ? [state.indicator] : [], () => { state.indicator = ""; changed(); });
  fill("flower-tiles", state.flowers, (i) => { state.flowers.splice(i, 1); changed(); });
  $("pad").classList.toggle("flowers", state.target === "flowers");
  const melds = $("meld-tiles");
  melds.replaceChildren(...state.melds.map((m, i) => {
    const g = document.createElement("span");
    g.className = "group" + (m.concealed ? " concealed" : "");
    g.title = m.key;
    parseTiles(m.tiles).forEach((t) => g.append(tileEl(t)));
    g.addEventListener("click", () => { state.melds.splice(i, 1); changed(); });
    return g;
  }));
  $("hand-count").textContent = `${state.hand.length}/${needed()}`;
  $("hand-text").value = notation(state.hand);
  $("win-by").value = state.by;
  $("heavenly").checked = state.heavenly;
  $("discarded-hun").checked = state.dhun;
  for (const b of document.querySelectorAll(".targets button")) {
    b.classList.toggle("on", b.dataset.target === state.target);
    b.setAttribute("aria-checked", b.dataset.target === state.target);
  }
}

function buildPad() {
  const pad = $("pad");
  for (const s of ["m", "p", "s", "z", "f"]) {
    const row = document.createElement("div");
    row.className = "pad-row" + (s === "f" ? " flower-row" : "");
    for (let r = 1; r <= (s === "z" ? 7 : s === "f" ? 8 : 9); r++) {
      const t = r + s;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "t " + s;
      b.dataset.tile = t;
      b.title = t;
      b.textContent = tileLabel(t);
      b.addEventListener("click", () => press(t));
      row.append(b);
    }
    pad.append(row);
  }
}

function press(t) {
  const target = state.target;
  state.history.push(JSON.stringify([state.hand, state.win, state.indicator, state.melds, state.flowers]));
  if (t[1] === "f") {
    if (!state.flowers.includes(t)) state.flowers.push(t);
  } else if (target === "flowers") {
    state.history.pop();
    return;
  } else if (target === "hand") {
    if (state.hand.length < needed()) state.hand.push(t);
    if (state.hand.length === needed() && !state.win) state.target = "win";
  } else if (target === "win") {
    state.win = t;
    if (!state.indicator) state.target = "indicator";
  } else if (target === "indicator") {
    state.indicator = t;
  } else if (state.melds.length < 4) {
    state.melds.push(meld(target, t));
    state.hand = state.hand.slice(0, needed());
  }
  changed();
}

// on a phone the result is below the pad: a bar at the bottom of the screen says it at once
function drawSummary(res) {
  const bar = $("summary");
  bar.hidden = !res;
  if (!res) return;
  const r = res.data;
  bar.className = "summary " + (!res.ok ? "bad" : r.win ? "win" : "bad");
  bar.textContent = !res.ok ? errorText(r)
    : r.win ? `和 ${r.total_fan} 番 · ${(r.pattern_names || []).join(" ")}` : `不和: ${r.reason}`;
}

function drawResult(res) {
  drawSummary(res);
  const box = $("result-body");
  box.className = "";
  if (!res) {
    box.className = "muted";
    box.textContent = state.ruleset === OVERLAY && !state.overlayOk
      ? "The pasted overlay does not load yet: see its problems above."
      : "Enter a hand, its winning tile and the indicator.";
    return;
  }
  if (!res.ok) { box.className = "error"; box.textContent = errorText(res.data); return; }
  const r = res.data;
  const head = document.createElement("p");
  head.className = "verdict " + (r.win ? "win" : "nowin");
  head.id = "verdict";
  head.textContent = r.win ? `和 ${r.total_fan} 番` : `不和: ${r.reason}`;
  const detail = document.createElement("p");
  detail.className = "muted";
  if (r.win) detail.textContent = `hand ${r.hand_fan} + kongs ${r.kong_fan}`;
  const names = document.createElement("p");
  names.className = "chips";
  names.id = "pattern-names";
  (r.pattern_names || []).forEach((n) => {
    const c = document.createElement("span"); c.className = "chip"; c.textContent = n; names.append(c);
  });
  const explain = document.createElement("ol");
  explain.id = "explain";
  explain.className = "explain";
  (r.explain || []).forEach((line) => {
    const li = document.createElement("li"); li.textContent = line; explain.append(li);
  });
  const groups = document.createElement("div");
  groups.className = "arrangement";
  (r.arrangement || []).forEach((g) => {
    const el = document.createElement("span");
    el.className = "group" + (g.declared ? " declared" : "");
    parseTiles(g.tiles).forEach((t) => el.append(tileEl(t)));
    if (g.win) el.classList.add("haswin");
    if (g.hun_as) { const n = document.createElement("small"); n.textContent = "混=" + g.hun_as; el.append(n); }
    groups.append(el);
  });
  box.replaceChildren(head, detail, names, explain, groups);
}

function drawWaits(res) {
  const box = $("waits-body");
  box.className = "";
  if (!res) { box.className = "muted"; box.textContent = `A hand of ${needed()} tiles and an indicator show what it waits on.`; return; }
  if (!res.ok) { box.className = "error"; box.textContent = errorText(res.data); return; }
  const list = res.data.waits || [];
  if (!list.length) { box.textContent = "No tile completes this hand."; return; }
  const ul = document.createElement("ul");
  ul.className = "waits";
  list.forEach((w) => {
    const li = document.createElement("li");
    li.append(tileEl(w.tile));
    const v = document.createElement("span");
    v.textContent = w.win ? ` ${w.total_fan} 番 ${w.pattern_names.join(" ")}` : ` 不和 (${w.reason})`;
    li.append(v);
    li.addEventListener("click", () => { state.win = w.tile; changed(); });
    ul.append(li);
  });
  box.replaceChildren(ul);
}

// -- settle ----------------------------------------------------------------------------------
function seatOptions(select, withDraw) {
  const want = [...Array(state.players).keys()].map(String).concat(withDraw ? ["draw"] : []);
  if ([...select.options].map((o) => o.value).join() === want.join()) return;
  select.replaceChildren(...want.map((v) => {
    const o = document.createElement("option");
    o.value = v; o.textContent = v === "draw" ? "流局 draw" : "seat " + v; return o;
  }));
}

function drawSettleForm() {
  seatOptions($("dealer"), false);
  seatOptions($("winner"), true);
  seatOptions($("discarder"), false);
  $("dealer").value = String(state.dealer);
  $("winner").value = state.winner === null ? "draw" : String(state.winner);
  $("discarder").value = String(state.discarder);
  $("discarder-box").hidden = state.by !== "discard";
  $("dealer-sits").checked = state.sits;
  $("chan").checked = state.chan;
  $("stake").value = state.stake;
  const rows = $("seat-rows");
  if (rows.children.length !== state.players) {
    rows.replaceChildren(...[...Array(state.players).keys()].map((s) => {
      const tr = document.createElement("tr");
      tr.innerHTML = `<th>seat ${s}</th><td><input type="number" min="0" max="9" data-pull="${s}" inputmode="numeric"></td>` +
        `<td><input type="number" min="0" max="4" data-kong="${s}.0" inputmode="numeric"></td>` +
        `<td><input type="number" min="0" max="4" data-kong="${s}.1" inputmode="numeric"></td>` +
        `<td class="pay" data-pay="${s}"></td>`;
      return tr;
    }));
  }
  for (const inp of rows.querySelectorAll("input[data-pull]")) {
    const s = Number(inp.dataset.pull);
    inp.value = state.pulls[s];
    inp.disabled = s === state.dealer;
  }
  for (const inp of rows.querySelectorAll("input[data-kong]")) {
    const [s, k] = inp.dataset.kong.split(".").map(Number);
    inp.value = state.kongs[s][k];
    inp.disabled = s === state.winner;     // the winner's kongs come from the hand
  }
}

// the winner's kongs are the hand's, as the score named them (exposed / concealed / golden)
function settleDoc(winnerKongs) {
  const kongs = [...Array(state.players).keys()].map((s) => {
    if (s === state.winner) return winnerKongs;
    return Array(state.kongs[s][0]).fill("exposed").concat(Array(state.kongs[s][1]).fill("concealed"));
  });
  const doc = { dealer: state.dealer, dealer_sits: state.sits,
                pulls: state.pulls.slice(0, state.players).map((p, s) => (s === state.dealer ? 0 : p)),
                winner: state.winner, kongs, chan: state.chan, stake: state.stake };
  if (state.winner !== null) doc.hand = handDoc(true);
  if (state.winner !== null && state.by === "discard") doc.discarder = state.discarder;
  return doc;
}

function drawSettle(res) {
  const status = $("settle-status");
  const pays = document.querySelectorAll("[data-pay]");
  pays.forEach((td) => { td.textContent = ""; td.className = "pay"; });
  $("transfers").replaceChildren();
  if (!res) { status.className = "muted"; status.textContent = "A complete hand (or a draw) settles here."; return; }
  if (!res.ok) { status.className = "error"; status.textContent = errorText(res.data); return; }
  status.className = "muted";
  status.textContent = `next dealer: seat ${res.data.next_dealer}`;
  res.data.payments.forEach((p, s) => {
    const td = document.querySelector(`[data-pay="${s}"]`);
    if (td) { td.textContent = (p > 0 ? "+" : "") + p; td.className = "pay " + (p > 0 ? "gain" : p < 0 ? "loss" : ""); }
  });
  $("transfers").replaceChildren(...res.data.transfers.map((t) => {
    const li = document.createElement("li");
    li.textContent = `seat ${t.from} → seat ${t.to}: ${t.amount} (${t.why})`;
    return li;
  }));
}

// -- rulesets and the overlay -----------------------------------------------------------------
let rulesetInfo = {};

async function loadRulesets() {
  const r = await fetch("/v1/rulesets");
  const data = await r.json();
  const sel = $("ruleset");
  sel.replaceChildren();
  for (const rs of data.rulesets) {
    rulesetInfo[rs.name] = rs;
    const o = document.createElement("option");
    o.value = rs.name;
    o.textContent = rs.name + (rs.origin === "served" ? " (this club)" : "");
    sel.append(o);
  }
  const o = document.createElement("option");
  o.value = OVERLAY; o.textContent = "Pasted overlay…";
  sel.append(o);
}

function drawRules() {
  const sel = $("ruleset");
  if (state.ruleset !== OVERLAY && !rulesetInfo[state.ruleset]) state.ruleset = "tianjin";
  sel.value = state.ruleset;
  const overlay = state.ruleset === OVERLAY;
  $("overlay-box").hidden = !overlay;
  if ($("overlay").value !== state.overlay) $("overlay").value = state.overlay;
  const info = rulesetInfo[state.ruleset];
  $("ruleset-title").textContent = overlay ? "" : (info && info.title) || "";
  $("sheet-link").href = overlay ? "/rules?overlay=" + encodeURIComponent(state.overlay)
    : "/rules/" + encodeURIComponent(state.ruleset);
  if (!overlay && info) state.players = info.players;
}

async function validateOverlay() {
  const res = await post("/v1/validate", { ruleset_yaml: state.overlay });
  const list = $("overlay-errors");
  const status = $("overlay-status");
  list.replaceChildren();
  if (!res.ok) { state.overlayOk = false; status.className = "error"; status.textContent = errorText(res.data); return; }
  const d = res.data;
  state.overlayOk = d.ok;
  if (d.ok) {
    status.className = "ok";
    status.textContent = `✓ ${d.name}: ${d.patterns.length} patterns, ${d.chain.join(" ← ")}`;
    state.players = d.players;
    return;
  }
  status.className = "error";
  status.textContent = `${d.problems.length} problem(s)`;
  for (const p of d.problems) {
    const li = document.createElement("li");
    const here = !p.file || p.file === "<inline>";     // else a line of the ruleset it extends
    li.dataset.line = here ? p.line : 0;
    li.textContent = (p.line ? (here ? `line ${p.line}: ` : `${p.file}:${p.line}: `) : "") + p.message;
    if (here && p.line) li.addEventListener("click", () => selectLine(p.line));
    list.append(li);
  }
}

function selectLine(n) {
  const ta = $("overlay");
  const lines = ta.value.split("\n");
  const start = lines.slice(0, n - 1).join("\n").length + (n > 1 ? 1 : 0);
  ta.focus();
  ta.setSelectionRange(start, start + (lines[n - 1] || "").length);
}

// -- one change -> URL, drawing, and the requests it needs --------------------------------------
let timer = null;
let generation = 0;

function changed() {
  history.replaceState(null, "", "/?" + toQuery());
  $("share").href = location.href;
  drawRules();
  drawSlots();
  drawSettleForm();
  clearTimeout(timer);
  timer = setTimeout(refresh, 120);
}

async function refresh() {
  const gen = ++generation;
  document.body.dataset.busy = "1";
  if (state.ruleset === OVERLAY) {
    await validateOverlay();
    drawSettleForm();
    if (!state.overlayOk) { finish(gen, null, null, null); return; }
  }
  const complete = state.indicator && state.hand.length === needed();
  const scoring = complete && state.win
    ? post("/v1/score", { ...rulesetPart(), hand: handDoc(true) }) : null;
  const waiting = complete ? post("/v1/waits", { ...rulesetPart(), hand: handDoc(false) }) : null;
  const score = await scoring;
  const kongs = score && score.ok ? score.data.kongs : [];
  const settling = (score && score.ok && score.data.win) || state.winner === null
    ? post("/v1/settle", { ...rulesetPart(), settle: settleDoc(kongs) }) : null;
  finish(gen, score, await waiting, await settling);
}

function finish(gen, score, waits, settle) {
  if (gen !== generation) return;       // a newer change is on its way
  drawResult(score);
  drawWaits(waits);
  drawSettle(settle);
  document.body.dataset.busy = "";
  document.body.dataset.ready = String(gen);
}

function wire() {
  for (const b of document.querySelectorAll(".targets button")) {
    b.addEventListener("click", () => { state.target = b.dataset.target; drawSlots(); });
  }
  $("undo").addEventListener("click", () => {
    const last = state.history.pop();
    if (last) { [state.hand, state.win, state.indicator, state.melds, state.flowers] = JSON.parse(last); changed(); }
  });
  $("clear").addEventListener("click", () => {
    Object.assign(state, { hand: [], win: "", indicator: "", melds: [], flowers: [], target: "hand", history: [] });
    changed();
  });
  $("ruleset").addEventListener("change", (e) => { state.ruleset = e.target.value; changed(); });
  $("overlay").addEventListener("input", (e) => { state.overlay = e.target.value; changed(); });
  $("win-by").addEventListener("change", (e) => { state.by = e.target.value; changed(); });
  $("heavenly").addEventListener("change", (e) => { state.heavenly = e.target.checked; changed(); });
  $("discarded-hun").addEventListener("change", (e) => { state.dhun = e.target.checked; changed(); });
  $("hand-text").addEventListener("change", (e) => { state.hand = parseTiles(e.target.value).slice(0, needed()); changed(); });
  $("dealer").addEventListener("change", (e) => { state.dealer = Number(e.target.value); changed(); });
  $("winner").addEventListener("change", (e) => { state.winner = e.target.value === "draw" ? null : Number(e.target.value); changed(); });
  $("discarder").addEventListener("change", (e) => { state.discarder = Number(e.target.value); changed(); });
  $("dealer-sits").addEventListener("change", (e) => { state.sits = e.target.checked; changed(); });
  $("chan").addEventListener("change", (e) => { state.chan = e.target.checked; changed(); });
  $("stake").addEventListener("change", (e) => { state.stake = Math.max(0, Number(e.target.value) || 0); changed(); });
  $("seat-rows").addEventListener("change", (e) => {
    const inp = e.target;
    const v = Math.max(0, Number(inp.value) || 0);
    if (inp.dataset.pull) state.pulls[Number(inp.dataset.pull)] = v;
    if (inp.dataset.kong) { const [s, k] = inp.dataset.kong.split(".").map(Number); state.kongs[s][k] = Math.min(v, 4); }
    changed();
  });
}

async function start() {
  fromQuery(location.search);
  buildPad();
  wire();
  try { await loadRulesets(); } catch (e) { $("ruleset-title").textContent = "the server did not answer"; }
  if (!state.hand.length) state.target = "hand";
  changed();
}

document.addEventListener("DOMContentLoaded", start);
