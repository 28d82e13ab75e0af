// The rulekit calculator: a tile pad, the API's answers, and the state in the URL.
// Plain JavaScript, no build step. No rule lives here: every value and every name a player
// reads comes from the server; a typed hand is read by the server too (/v1/parse).
// Tiles are drawn by tiles.js (window.RulekitTiles), the score breakdown and transfers by
// result-view.js (window.RulekitResult), both loaded before this file.
"use strict";

const T = window.RulekitTiles;
const R = window.RulekitResult;     // the score and settle views (result-view.js)
const OVERLAY = "__overlay__";
const WIN_BY = ["self_draw", "kong_draw", "discard", "last_draw"];
const KONG_KINDS = ["exposed", "concealed", "golden"];
// what a link may carry: anything longer or larger is refused (and the page stays usable)
const LIMIT = { param: 300, overlay: 65536, name: 16, pulls: 9, kongs: 4, stake: 1e9 };

// -- labels in two languages (the tile names are tiles.js's; pattern names the ruleset's) --
const L = {
  zh: {
    subtitle: "天津麻將 算番", sheet: "規則表", ruleset: "規則", "overlay-help": "貼上規則 (YAML，extends: 上面一種)",
    "t-hand": "手牌", "t-win": "和", "t-indicator": "混", "t-pung": "碰", "t-kong": "明杠", "t-ckong": "暗杠",
    "t-flowers": "花", "s-hand": "手牌", "s-win": "和牌", "s-indicator": "混 (翻牌)", "s-flowers": "花",
    "s-melds": "碰 / 杠", undo: "⌫ 退回", clear: "清除", "won-by": "和法", "by-self_draw": "自摸",
    "by-kong_draw": "杠開", "by-discard": "點炮", "by-last_draw": "海底撈", heavenly: "天和", dhun: "打過混", hun: "混",
    "as-text": "整手牌打字 (手牌，然後 和 混 碰 杠 暗杠 花)", read: "讀入", "h-result": "番", "h-waits": "聽",
    "h-settle": "結算", dealer: "莊家", sits: "坐莊", winner: "和牌", discarder: "點炮", chan: "鏟", stake: "底",
    "c-seat": "座", "c-pulls": "拉莊", "c-exposed": "明杠", "c-concealed": "暗杠", "c-golden": "金杠",
    "c-net": "輸贏", share: "這手牌的連結 (網址就是牌)：", link: "連結", langButton: "EN",
    overlayChoice: "貼上規則…", club: "(本會)", draw: "流局", winds: "東南西北", seat: "座",
    win: (n) => `和 ${n} 番`, nowin: (r) => `不和：${r}`, detail: (h, k) => `手牌 ${h} + 杠 ${k}`,
    fan: "番", enter: "輸入手牌、和牌與混。", waitsEmpty: (n) => `${n} 張手牌與混，就列出聽哪些牌。`,
    noWaits: "沒有牌能和。", settleEmpty: "和了 (或流局) 就在這裡結算。", nextDealer: (s) => `下一莊：${s}`,
    overlayWaiting: "貼上的規則還不能用：見上面的問題。", problems: (n) => `${n} 個問題`,
    line: (n) => `第 ${n} 行：`, handFull: (n) => `手牌已滿 (${n}/${n})：點上面的牌可拿回`,
    meldsFull: "最多四組碰杠", flowerOnly: "花：請點花牌 (最下一行)", flowerTwice: (t) => `${t} 已經有了`,
    tooMany: (n, m) => `${n} 張手牌，最多 ${m} 張 (和牌另算)`, netHelp: "+ 收，− 付",
    linkBad: "連結有問題 (已改正，頁面照常可用)：", dismiss: "知道了", busy: "伺服器忙，稍後再試",
    name: "名字", retry: "重試",
  },
  en: {
    subtitle: "Tianjin mahjong calculator", sheet: "rule sheet", ruleset: "Ruleset",
    "overlay-help": "Paste an overlay (YAML; extends: a ruleset above)",
    "t-hand": "Hand", "t-win": "Win", "t-indicator": "Indicator", "t-pung": "Pung", "t-kong": "Kong",
    "t-ckong": "Conc. kong", "t-flowers": "Flowers", "s-hand": "Hand", "s-win": "Winning tile",
    "s-indicator": "Indicator", "s-flowers": "Flowers", "s-melds": "Pungs / kongs", undo: "⌫ Undo",
    clear: "Clear", "won-by": "Won by", "by-self_draw": "self-draw", "by-kong_draw": "kong draw",
    "by-discard": "discard", "by-last_draw": "last tile", heavenly: "Heavenly (天和)",
    dhun: "Discarded a hun", hun: "hun", "as-text": "Type the whole hand (tiles, then win, ind, pung, kong, ckong, flowers)",
    read: "Read", "h-result": "Result", "h-waits": "Waits", "h-settle": "Settle", dealer: "Dealer",
    sits: "Dealer sits (坐莊)", winner: "Winner", discarder: "Discarder", chan: "Chan (鏟)", stake: "Stake",
    "c-seat": "Seat", "c-pulls": "Pulls", "c-exposed": "Kong", "c-concealed": "Conc.", "c-golden": "Golden",
    "c-net": "Net", share: "Share this hand: the address bar holds it.", link: "link", langButton: "中文",
    overlayChoice: "Pasted overlay…", club: "(this club)", draw: "draw (流局)",
    winds: ["East", "South", "West", "North"], seat: "seat",
    win: (n) => `Win: ${n} fan`, nowin: (r) => `No win: ${r}`, detail: (h, k) => `hand ${h} + kongs ${k}`,
    fan: "fan", enter: "Enter a hand, its winning tile and the indicator.",
    waitsEmpty: (n) => `A hand of ${n} tiles and an indicator show what it waits on.`,
    noWaits: "No tile completes this hand.", settleEmpty: "A complete hand (or a draw) settles here.",
    nextDealer: (s) => `next dealer: ${s}`, overlayWaiting: "The pasted overlay does not load yet: see its problems above.",
    problems: (n) => `${n} problem(s)`, line: (n) => `line ${n}: `,
    handFull: (n) => `The hand is full (${n}/${n}): tap a tile above to take it back`,
    meldsFull: "At most four pungs and kongs", flowerOnly: "Flowers: tap a flower (the bottom row)",
    flowerTwice: (t) => `${t} is already there`, tooMany: (n, m) => `${n} hand tiles; at most ${m} (and the winning tile)`,
    netHelp: "+ receives, − pays", linkBad: "This link had problems (fixed; the page works as usual):",
    dismiss: "OK", busy: "the server is busy; try again shortly", name: "name", retry: "retry",
  },
};
const tr = (key) => L[T.lang()][key];

const state = {
  ruleset: "tianjin", overlay: "", overlayOk: false, players: 4, golden: true, maxPulls: 9,
  target: "hand", hand: [], win: "", indicator: "", melds: [], flowers: [], history: [],
  by: "self_draw", heavenly: false, dhun: false,
  dealer: 0, sits: false, winner: 0, discarder: 1, chan: false, stake: 1,
  pulls: [0, 0, 0, 0], kongs: [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], names: ["", "", "", ""],
};
const last = { score: null, waits: null, settle: null };

const $ = (id) => document.getElementById(id);
const tileEl = (t, extra) => T.tileEl(t, { extra });

// "46m123s" (our own URL and the server's canonical notation) -> ["4m","6m","1s","2s","3s"]
function parseTiles(text) {
  const out = [];
  for (const [, digits, suit] of (text || "").matchAll(/([1-9]+)([mpszf])/g)) {
    for (const d of digits) out.push(d + suit);
  }
  return out.filter(T.valid);
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

// the whole hand as the text box shows it (the server reads it back: /v1/parse)
function handText() {
  const zh = T.lang() === "zh";
  const word = (zhw, enw) => " " + (zh ? zhw : enw + " ");
  let out = notation(state.hand);
  if (state.win) out += word("和", "win") + state.win;
  if (state.indicator) out += word("混", "ind") + state.indicator;
  for (const m of state.melds) out += word({ pung: "碰", kong: "杠", ckong: "暗杠" }[m.key], m.key) + m.tiles;
  if (state.flowers.length) out += word("花", "flowers") + notation(state.flowers);
  return out.trim();
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
  if (state.kongs.some((k) => k.some((n) => n))) {
    q.set("kongs", state.kongs.map((k) => (k[2] ? k : k.slice(0, 2)).join(".")).join(","));
  }
  if (state.names.some((n) => n)) q.set("names", state.names.join(","));
  if (state.chan) q.set("chan", "1");
  if (state.stake !== 1) q.set("stake", state.stake);
  return q.toString();
}

// A link is read as untrusted input: each value is checked and clamped to what a hand can
// hold; each problem is listed in the banner and the rest of the link still applies.
function fromQuery(search) {
  const q = new URLSearchParams(search);
  const errors = [];
  const bad = (key, why) => errors.push(`${key}=${String(q.get(key)).slice(0, 40)}: ${why}`);
  const text = (key, max) => {
    const v = q.get(key);
    if (v === null) return null;
    if (v.length > (max || LIMIT.param)) { bad(key, `longer than ${max || LIMIT.param} characters`); return null; }
    return v;
  };
  const tiles = (key) => {
    const v = text(key);
    if (v === null) return [];
    const clean = v.replace(/\s+/g, "");
    if (!/^([1-9]+[mpszf])*$/.test(clean) || parseTiles(clean).length !== clean.replace(/[mpszf]/g, "").length) {
      bad(key, "not tiles (e.g. 46m123456789s22z)");
      return [];
    }
    return parseTiles(clean);
  };
  const int = (key, lo, hi, dflt, raw) => {
    const v = raw !== undefined ? raw : text(key);
    if (v === null || v === "") return dflt;
    if (!/^\d{1,6}$/.test(v)) { bad(key, "not a whole number"); return dflt; }
    const n = Number(v);
    if (n < lo || n > hi) { bad(key, `${n} is not in ${lo}..${hi}`); return Math.min(hi, Math.max(lo, n)); }
    return n;
  };
  const ov = text("overlay", LIMIT.overlay);
  if (ov !== null) { state.ruleset = OVERLAY; state.overlay = ov; }
  else if (q.has("ruleset")) {
    const name = text("ruleset", 64);
    if (name !== null && /^[A-Za-z0-9_.-]+$/.test(name)) state.ruleset = name;
    else if (name !== null) bad("ruleset", "not a ruleset name");
  }
  state.melds = [];
  for (const key of ["pung", "kong", "ckong"]) {
    for (const part of (text(key) || "").split(",").filter(Boolean).slice(0, 8)) {
      const ts = /^[1-9]{1,4}[mpsz]$/.test(part) ? parseTiles(part) : [];
      if (!ts.length || ts.some((t) => t !== ts[0])) { bad(key, "not a pung or kong (e.g. 555p)"); continue; }
      if (state.melds.length >= 4) { bad(key, "at most four pungs and kongs"); break; }
      state.melds.push(meld(key, ts[0]));
    }
  }
  state.hand = tiles("hand").filter((t) => t[1] !== "f");
  if (state.hand.length > needed()) { bad("hand", `${state.hand.length} tiles; at most ${needed()}`); state.hand = state.hand.slice(0, needed()); }
  for (const key of ["win", "indicator"]) {
    const ts = tiles(key);
    if (ts.length > 1 || ts.some((t) => t[1] === "f")) bad(key, "one tile (e.g. 5m)");
    state[key] = ts.length === 1 && ts[0][1] !== "f" ? ts[0] : "";
  }
  const fl = tiles("flowers");
  state.flowers = [...new Set(fl.filter((t) => t[1] === "f"))];
  if (state.flowers.length !== fl.length) bad("flowers", "flower tiles 1f-8f, each once");
  const by = text("by");
  state.by = by === null ? "self_draw" : WIN_BY.includes(by) ? by : (bad("by", WIN_BY.join(" / ")), "self_draw");
  state.heavenly = q.get("heavenly") === "1";
  state.dhun = q.get("dhun") === "1";
  state.dealer = int("dealer", 0, 3, 0);
  state.sits = q.get("sits") === "1";
  state.winner = q.get("winner") === "draw" ? null : int("winner", 0, 3, 0);
  state.discarder = int("discarder", 0, 3, 1);
  state.chan = q.get("chan") === "1";
  const stake = text("stake", 20);
  state.stake = 1;
  if (stake !== null) {
    if (/^\d{1,10}(\.\d{1,6})?$/.test(stake) && Number(stake) > 0 && Number(stake) <= LIMIT.stake) state.stake = Number(stake);
    else bad("stake", `a positive number up to ${LIMIT.stake}`);
  }
  const pulls = (text("pulls") || "").split(",").slice(0, 4);
  state.pulls = [0, 1, 2, 3].map((i) => int("pulls", 0, LIMIT.pulls, 0, pulls[i] || ""));
  const kongs = (text("kongs") || "").split(",").slice(0, 4);
  state.kongs = [0, 1, 2, 3].map((i) => {
    const k = (kongs[i] || "").split(".").slice(0, 3).map((v) => int("kongs", 0, LIMIT.kongs, 0, v));
    while (k.length < 3) k.push(0);
    return clampKongs(k, () => bad("kongs", `at most ${LIMIT.kongs} kongs a seat`));
  });
  state.names = [0, 1, 2, 3].map((i) => ((text("names") || "").split(",")[i] || "").trim().slice(0, LIMIT.name));
  return errors;
}

// a seat has at most four kongs in all: take the excess off the last kinds first
function clampKongs(k, onClamp) {
  let room = LIMIT.kongs;
  const out = k.map((n) => { const m = Math.min(n, room); room -= m; return m; });
  if (out.some((n, i) => n !== k[i]) && onClamp) onClamp();
  return out;
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
  let r;
  try {
    r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                            body: JSON.stringify(body) });
  } catch (e) {
    return { ok: false, status: 0, data: { error: { field: "", message: tr("busy") } } };
  }
  let data;
  try { data = await r.json(); } catch (e) { data = { error: { field: "", message: r.statusText } }; }
  if (r.status === 503) data = { error: { field: "", message: tr("busy") + " (" + errorText(data) + ")" } };
  return { ok: r.ok, status: r.status, data };
}

function errorText(data) {
  const e = (data && data.error) || {};
  return (e.field ? e.field + ": " : "") + (e.message || "error");
}

// -- drawing ---------------------------------------------------------------------------------
function applyLang() {
  const lang = T.lang();
  document.documentElement.lang = lang === "zh" ? "zh-Hant" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = tr(el.dataset.i18n);
  $("lang").textContent = tr("langButton");
  $("hand-text").placeholder = lang === "zh" ? "46m123456789s22z 和5m 混7p" : "46m123456789s22z win 5m ind 7p";
  document.querySelector("th[data-i18n=c-net]").title = tr("netHelp");
  const sel = $("ruleset");
  for (const o of sel.options) {
    if (o.value === OVERLAY) o.textContent = tr("overlayChoice");
    else if (rulesetInfo[o.value]) o.textContent = o.value + (rulesetInfo[o.value].origin === "served" ? " " + tr("club") : "");
  }
  for (const id of ["dealer", "winner", "discarder"]) $(id).replaceChildren();
  $("seat-rows").replaceChildren();
}

function drawSlots() {
  const fill = (id, tiles, onClick) => {
    $(id).replaceChildren(...tiles.map((t, i) => {
      const el = T.tileEl(t, { tag: "button" });
      el.type = "button";
      el.addEventListener("click", () => onClick(i));
      return el;
    }));
  };
  fill("hand-tiles", state.hand, (i) => { remember(); state.hand.splice(i, 1); state.target = "hand"; changed(); });
  fill("win-tiles", state.win ? [state.win] : [], () => { remember(); state.win = ""; changed(); });
  fill("indicator-tiles", state.indicator ? [state.indicator] : [], () => { remember(); state.indicator = ""; changed(); });
  drawHun();
  fill("flower-tiles", state.flowers, (i) => { remember(); state.flowers.splice(i, 1); changed(); });
  $("pad").classList.toggle("flowers", state.target === "flowers");
  $("meld-tiles").replaceChildren(...state.melds.map((m, i) => {
    const g = document.createElement("button");
    g.type = "button";
    g.className = "group" + (m.concealed ? " concealed" : "");
    g.title = tr("t-" + m.key);
    // a concealed kong lies as at the table: its two end tiles face down
    parseTiles(m.tiles).forEach((t, j) => g.append(tileEl(m.concealed && (j === 0 || j === 3) ? "back" : t)));
    g.setAttribute("aria-label", `${tr("t-" + m.key)} ${T.tileLabel(m.tile)}`);
    g.addEventListener("click", () => { remember(); state.melds.splice(i, 1); changed(); });
    return g;
  }));
  $("hand-count").textContent = `${state.hand.length}/${needed()}`;
  if (document.activeElement !== $("hand-text")) { $("hand-text").value = handText(); lastRead = null; }
  $("win-by").value = state.by;
  $("heavenly").checked = state.heavenly;
  $("discarded-hun").checked = state.dhun;
  for (const b of document.querySelectorAll(".targets button")) {
    b.classList.toggle("on", b.dataset.target === state.target);
    b.setAttribute("aria-checked", b.dataset.target === state.target);
  }
}

// the hun the indicator makes under this ruleset, as the server describes it (hun.kinds,
// game.single_hun): never derived here, so the page cannot disagree with the score
function drawHun() {
  const info = state.ruleset === OVERLAY ? overlayInfo : rulesetInfo[state.ruleset];
  const hun = state.indicator && info && info.hun_of ? info.hun_of[state.indicator] || [] : [];
  $("hun-of").replaceChildren(...(hun.length ? ["→ " + tr("hun") + " ", ...hun.map((t) => T.tileEl(t))] : []));
  $("hun-of").dataset.hun = hun.join(" ");
}

function buildPad() {
  const pad = $("pad");
  for (const s of ["m", "p", "s", "z", "f"]) {
    const row = document.createElement("div");
    row.className = "pad-row" + (s === "f" ? " flower-row" : "");
    for (let r = 1; r <= (s === "z" ? 7 : s === "f" ? 8 : 9); r++) {
      const b = T.tileEl(r + s, { tag: "button" });
      b.type = "button";
      b.addEventListener("click", () => press(r + s));
      row.append(b);
    }
    pad.append(row);
  }
}

function remember() {
  state.history.push(JSON.stringify([state.hand, state.win, state.indicator, state.melds, state.flowers]));
  if (state.history.length > 200) state.history.shift();
}

// a tap that cannot be taken says why, where the thumb is
function refuse(message, slot) {
  const status = $("pad-status");
  status.textContent = message;
  status.classList.remove("flash");
  void status.offsetWidth;                 // restart the animation
  status.classList.add("flash");
  const box = slot && $(slot);
  if (box) { box.classList.remove("full"); void box.offsetWidth; box.classList.add("full"); }
}

function press(t) {
  const target = state.target;
  $("pad-status").textContent = "";
  if (t[1] === "f") {
    if (state.flowers.includes(t)) { refuse(tr("flowerTwice")(T.tileLabel(t)), "flower-tiles"); return; }
    remember(); state.flowers.push(t);
  } else if (target === "flowers") {
    refuse(tr("flowerOnly"), "flower-tiles");
    return;
  } else if (target === "hand") {
    if (state.hand.length >= needed()) { refuse(tr("handFull")(needed()), "hand-tiles"); return; }
    remember(); state.hand.push(t);
    if (state.hand.length === needed() && !state.win) state.target = "win";
  } else if (target === "win") {
    remember(); state.win = t;
    if (!state.indicator) state.target = "indicator";
  } else if (target === "indicator") {
    remember(); state.indicator = t;
  } else {
    if (state.melds.length >= 4) { refuse(tr("meldsFull"), "meld-tiles"); return; }
    remember(); state.melds.push(meld(target, t));
    state.hand = state.hand.slice(0, needed());
  }
  changed();
}

// on a phone the result is below the pad: a line above the pad says it at once
function drawSummary(res) {
  const bar = $("summary");
  const r = res && res.data;
  bar.className = "summary " + (!res ? "idle" : !res.ok ? "bad" : r.win ? "win" : "bad");
  bar.textContent = !res ? tr("enter") : !res.ok ? errorText(r)
    : r.win ? `${tr("win")(r.total_fan)} · ${(r.pattern_names || []).join(" ")}` : tr("nowin")(reasonText(r));
}

const reasonText = (r) => R.reasonText(r);

function drawResult(res) {
  drawSummary(res);
  const box = $("result-body");
  box.className = "";
  if (!res) {
    box.className = "muted";
    box.textContent = state.ruleset === OVERLAY && !state.overlayOk ? tr("overlayWaiting") : tr("enter");
    return;
  }
  if (!res.ok) { box.className = "error"; box.textContent = errorText(res.data); return; }
  box.replaceChildren(...R.score(res.data));     // result-view.js, shared with the table page
}

function drawWaits(res) {
  const box = $("waits-body");
  box.className = "";
  if (!res) { box.className = "muted"; box.textContent = tr("waitsEmpty")(needed()); return; }
  if (!res.ok) { box.className = "error"; box.textContent = errorText(res.data); return; }
  const list = res.data.waits || [];
  if (!list.length) { box.textContent = tr("noWaits"); return; }
  const ul = document.createElement("ul");
  ul.className = "waits";
  list.forEach((w) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.append(tileEl(w.tile));
    const v = document.createElement("span");
    v.textContent = w.win ? ` ${w.total_fan} ${tr("fan")} ${w.pattern_names.join(" ")}`
      : ` ${tr("nowin")(reasonText(w))}`;
    b.append(v);
    b.addEventListener("click", () => { remember(); state.win = w.tile; changed(); });
    li.append(b);
    ul.append(li);
  });
  box.replaceChildren(ul);
}

// -- settle ----------------------------------------------------------------------------------
// a seat is its player's name, else its wind (the dealer is East)
// a seat's wind counted from the dealer among this ruleset's players (3 or 4): 0 is East
function windOf(s) { return (s - state.dealer + 4 * state.players) % state.players; }

function seatName(s) {
  if (state.names[s]) return state.names[s];
  return tr("winds")[windOf(s)];
}

function seatOptions(select, withDraw, byNumber) {
  const want = [...Array(state.players).keys()].map(String).concat(withDraw ? ["draw"] : []);
  const label = (v) => (v === "draw" ? tr("draw") : byNumber ? state.names[v] || `${tr("seat")} ${Number(v) + 1}` : seatName(Number(v)));
  const labels = want.map(label);
  if ([...select.options].map((o) => o.textContent).join("|") === labels.join("|")) return;
  select.replaceChildren(...want.map((v, i) => {
    const o = document.createElement("option");
    o.value = v; o.textContent = labels[i]; return o;
  }));
}

// the winner's kongs are its hand's, as the score named them (or as the melds say before it)
function winnerKongs() {
  const s = last.score && last.score.ok ? last.score.data.kongs : null;
  if (s) return KONG_KINDS.map((k) => s.filter((x) => x === k).length);
  const ks = state.melds.filter((m) => m.kind === "kong");
  return [ks.filter((m) => !m.concealed).length, ks.filter((m) => m.concealed).length, 0];
}

function seatRow(s) {
  const tr_ = document.createElement("tr");
  const head = document.createElement("th");
  const wind = T.tileEl((windOf(s) + 1) + "z", { extra: "mini" });
  const name = document.createElement("input");
  name.type = "text"; name.dataset.name = s; name.maxLength = LIMIT.name; name.className = "seat-name";
  head.append(wind, name);
  tr_.append(head);
  const cell = (attrs) => {
    const td = document.createElement("td");
    const inp = document.createElement("input");
    Object.assign(inp, { type: "number", min: 0, inputMode: "numeric" });
    for (const [k, v] of Object.entries(attrs)) inp.setAttribute(k, v);
    td.append(inp);
    return td;
  };
  tr_.append(cell({ "data-pull": s, max: state.maxPulls }));
  KONG_KINDS.forEach((k, i) => tr_.append(cell({ "data-kong": `${s}.${i}`, max: 4 })));
  const pay = document.createElement("td");
  pay.className = "pay"; pay.dataset.pay = s;
  tr_.append(pay);
  return tr_;
}

function drawSettleForm() {
  seatOptions($("dealer"), false, true);
  seatOptions($("winner"), true);
  seatOptions($("discarder"), false);
  $("dealer").value = String(state.dealer);
  $("winner").value = state.winner === null ? "draw" : String(state.winner);
  $("discarder").value = String(state.discarder);
  $("discarder-box").hidden = state.by !== "discard";
  $("dealer-sits").checked = state.sits;
  $("chan").checked = state.chan;
  if (document.activeElement !== $("stake")) $("stake").value = state.stake;
  const rows = $("seat-rows");
  if (rows.children.length !== state.players || rows.dataset.dealer !== String(state.dealer)) {
    rows.replaceChildren(...[...Array(state.players).keys()].map(seatRow));
    rows.dataset.dealer = String(state.dealer);
  }
  document.querySelectorAll("[data-i18n=c-golden], [data-kong$='.2']").forEach((e) => {
    (e.closest("td") || e).classList.toggle("off", !state.golden);
  });
  for (const inp of rows.querySelectorAll("input[data-name]")) {
    const s = Number(inp.dataset.name);
    if (document.activeElement !== inp) inp.value = state.names[s];
    inp.placeholder = tr("winds")[windOf(s)];
  }
  const typing = document.activeElement;        // an answer arriving never undoes a keystroke
  for (const inp of rows.querySelectorAll("input[data-pull]")) {
    const s = Number(inp.dataset.pull);
    if (inp !== typing) inp.value = state.pulls[s];
    inp.disabled = s === state.dealer;
  }
  const mine = winnerKongs();
  for (const inp of rows.querySelectorAll("input[data-kong]")) {
    const [s, k] = inp.dataset.kong.split(".").map(Number);
    const winner = s === state.winner;             // the winner's kongs come from the hand
    if (inp !== typing || winner) inp.value = winner ? mine[k] : state.kongs[s][k];
    inp.disabled = winner || (k === 2 && !state.golden);
    inp.title = winner ? "from the hand" : "";
  }
}

function settleDoc(kongs) {
  const doc = { dealer: state.dealer, dealer_sits: state.sits,
                pulls: state.pulls.slice(0, state.players).map((p, s) => (s === state.dealer ? 0 : p)),
                winner: state.winner, chan: state.chan, stake: state.stake };
  doc.kongs = [...Array(state.players).keys()].map((s) => (s === state.winner ? kongs
    : KONG_KINDS.flatMap((k, i) => Array(state.kongs[s][i]).fill(k))));
  if (state.winner !== null) doc.hand = handDoc(true);
  if (state.winner !== null && state.by === "discard") doc.discarder = state.discarder;
  return doc;
}

function drawSettle(res) {
  const status = $("settle-status");
  document.querySelectorAll("[data-pay]").forEach((td) => { td.textContent = ""; td.className = "pay"; });
  $("transfers").replaceChildren();
  if (!res) { status.className = "muted"; status.textContent = tr("settleEmpty"); return; }
  if (!res.ok) { status.className = "error"; status.textContent = errorText(res.data); return; }
  status.className = "muted";
  status.textContent = tr("nextDealer")(seatName(res.data.next_dealer));
  res.data.payments.forEach((p, s) => {
    const td = document.querySelector(`[data-pay="${s}"]`);
    if (td) R.payCell(td, p);
  });
  $("transfers").replaceChildren(...R.transfers(res.data.transfers, seatName));
}

// -- rulesets and the overlay -----------------------------------------------------------------
const rulesetInfo = {};
let overlayInfo = null;         // the pasted overlay's description, once /v1/validate said ok

async function loadRulesets() {
  const r = await fetch("/v1/rulesets");
  const data = await r.json();
  const sel = $("ruleset");
  sel.replaceChildren();
  for (const rs of data.rulesets) {
    rulesetInfo[rs.name] = rs;
    const o = document.createElement("option");
    o.value = rs.name;
    o.textContent = rs.name + (rs.origin === "served" ? " " + tr("club") : "");
    sel.append(o);
  }
  const o = document.createElement("option");
  o.value = OVERLAY; o.textContent = tr("overlayChoice");
  sel.append(o);
}

function useRules(info) {
  state.players = info.players || 4;
  state.golden = info.golden_kong !== false;
  state.maxPulls = Number.isInteger(info.max_pulls) ? info.max_pulls : LIMIT.pulls;
  // a seat the link named that this table does not have, or more pulls than it allows
  const fixed = [];
  for (const k of ["dealer", "discarder", "winner"]) {
    if (state[k] !== null && state[k] >= state.players) { fixed.push(`${k}: seat ${state[k] + 1} of ${state.players}`); state[k] = 0; }
  }
  if (state.pulls.some((p) => p > state.maxPulls)) fixed.push(`pulls: at most ${state.maxPulls} (拉莊) here`);
  state.pulls = state.pulls.map((p) => Math.min(p, state.maxPulls));
  if (!state.golden && state.kongs.some((k) => k[2])) fixed.push("kongs: no 金杠 here");
  if (!state.golden) state.kongs = state.kongs.map((k) => [k[0], k[1], 0]);
  linkProblems(fixed);
}

function drawRules() {
  const sel = $("ruleset");
  if (state.ruleset !== OVERLAY && !rulesetInfo[state.ruleset] && Object.keys(rulesetInfo).length) {
    linkProblems([`ruleset=${state.ruleset.slice(0, 40)}: no such ruleset here; showing tianjin`]);
    state.ruleset = "tianjin";
  }
  sel.value = state.ruleset;
  const overlay = state.ruleset === OVERLAY;
  $("overlay-box").hidden = !overlay;
  if ($("overlay").value !== state.overlay) $("overlay").value = state.overlay;
  const info = rulesetInfo[state.ruleset];
  $("ruleset-title").textContent = overlay ? "" : (info && info.title) || "";
  $("sheet-link").href = overlay ? "/rules?overlay=" + encodeURIComponent(state.overlay)
    : "/rules/" + encodeURIComponent(state.ruleset);
  if (!overlay && info) useRules(info);
}

// the overlay is validated once per text: a tap on the pad does not send it again, and a
// refusal (a heavy overlay answered 503) is not retried by itself
const checked = { text: null, res: null };

// `gen`: the refresh asking; an answer that comes back after a newer refresh started (a slow
// server: the text was still being typed or pasted when it was sent) is kept for its text but
// not shown, so a stale "1 problem" never overwrites the newer text's verdict
async function validateOverlay(gen) {
  const text = state.overlay;
  const res = checked.text === text ? checked.res
    : await post("/v1/validate", { ruleset_yaml: text });
  checked.text = text; checked.res = res;
  if (gen !== generation) return false;
  const list = $("overlay-errors");
  const status = $("overlay-status");
  list.replaceChildren();
  if (!(res.ok && res.data.ok)) { overlayInfo = null; drawHun(); }
  if (!res.ok) {
    state.overlayOk = false; status.className = "error"; status.textContent = errorText(res.data);
    if (res.status === 503 || res.status === 0) {       // busy: the player decides to try again
      const again = document.createElement("button");
      again.type = "button"; again.textContent = tr("retry"); again.className = "retry";
      again.addEventListener("click", () => { checked.text = null; changed(); });
      status.append(" ", again);
    }
    return true;
  }
  const d = res.data;
  state.overlayOk = d.ok;
  if (d.ok) {
    status.className = "ok";
    status.textContent = `✓ ${d.name}: ${d.patterns.length} patterns, ${d.chain.join(" ← ")}`;
    overlayInfo = d;
    useRules(d);
    drawHun();
    return true;
  }
  status.className = "error";
  status.textContent = tr("problems")(d.problems.length);
  for (const p of d.problems) list.append(problemItem(p));
  return true;
}

// a problem: its line, then the message; the source line and caret below it keep their
// columns (monospace, never wrapped)
function problemItem(p) {
  const li = document.createElement("li");
  const here = !p.file || p.file === "<inline>";     // else a line of the ruleset it extends
  li.dataset.line = here ? p.line : 0;
  const [first, ...rest] = String(p.message).split("\n");
  const head = document.createElement("span");
  head.textContent = (p.line ? (here ? tr("line")(p.line) : `${p.file}:${p.line}: `) : "") + first;
  li.append(head);
  if (rest.length) {
    const pre = document.createElement("pre");
    pre.className = "caret";
    pre.textContent = rest.join("\n");
    li.append(pre);
  }
  if (here && p.line) li.addEventListener("click", () => selectLine(p.line));
  return li;
}

function selectLine(n) {
  const ta = $("overlay");
  const lines = ta.value.split("\n");
  const start = lines.slice(0, n - 1).join("\n").length + (n > 1 ? 1 : 0);
  ta.focus();
  ta.setSelectionRange(start, start + (lines[n - 1] || "").length);
}

function linkProblems(errors) {
  const box = $("link-errors");
  if (!errors.length) return;
  const shown = [...box.querySelectorAll("li")].map((li) => li.textContent);
  if (!box.firstChild) {
    const head = document.createElement("p");
    head.textContent = tr("linkBad");
    const ul = document.createElement("ul");
    const ok = document.createElement("button");
    ok.type = "button"; ok.textContent = tr("dismiss");
    ok.addEventListener("click", () => { box.hidden = true; box.replaceChildren(); });
    box.append(head, ul, ok);
  }
  const ul = box.querySelector("ul");
  errors.filter((e) => !shown.includes(e)).slice(0, 12).forEach((e) => {
    const li = document.createElement("li"); li.textContent = e; ul.append(li);
  });
  box.hidden = false;
}

// -- the typed hand: the server reads it (/v1/parse), as the CLI reads tiles ----------------------
let lastRead = null;

async function readText() {
  const input = $("hand-text");
  const err = $("hand-text-error");
  if (input.value === lastRead || input.value === handText()) return;   // Enter, then blur
  lastRead = input.value;
  const res = await post("/v1/parse", { text: input.value });
  if (!res.ok) { err.textContent = errorText(res.data); return; }
  const h = res.data.hand;
  const melds = (h.melds || []).map((m) => meld(m.kind === "pung" ? "pung" : m.concealed ? "ckong" : "kong",
                                                 parseTiles(m.tiles)[0]));
  const hand = parseTiles(h.hand);
  const room = 13 - 3 * melds.length;
  if (melds.length > 4 || hand.length > room) { err.textContent = tr("tooMany")(hand.length, Math.max(room, 0)); return; }
  err.textContent = "";
  remember();
  Object.assign(state, { hand, melds, win: h.win_tile || "", flowers: parseTiles(h.flowers || "") });
  if (h.indicator) state.indicator = h.indicator;
  state.target = hand.length < room ? "hand" : !state.win ? "win" : !state.indicator ? "indicator" : state.target;
  input.blur();
  changed();
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
    if (!await validateOverlay(gen)) return;      // a newer refresh owns the page
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
  Object.assign(last, { score, waits, settle });
  drawAnswers();
  document.body.dataset.busy = "";
  document.body.dataset.ready = String(gen);
}

function drawAnswers() {
  drawResult(last.score);
  drawWaits(last.waits);
  drawSettleForm();
  drawSettle(last.settle);
}

function wire() {
  for (const b of document.querySelectorAll(".targets button")) {
    b.addEventListener("click", () => { state.target = b.dataset.target; $("pad-status").textContent = ""; drawSlots(); });
  }
  $("lang").addEventListener("click", () => {
    T.setLang(T.lang() === "zh" ? "en" : "zh");
    applyLang();
    drawSlots(); drawRules(); drawAnswers();
    $("hand-text").value = handText();
    for (const el of document.querySelectorAll(".t[data-tile]")) {
      el.title = T.tileLabel(el.dataset.tile); el.setAttribute("aria-label", el.title);
    }
  });
  $("undo").addEventListener("click", () => {
    const prev = state.history.pop();
    if (prev) { [state.hand, state.win, state.indicator, state.melds, state.flowers] = JSON.parse(prev); changed(); }
  });
  $("clear").addEventListener("click", () => {
    remember();
    Object.assign(state, { hand: [], win: "", indicator: "", melds: [], flowers: [], target: "hand" });
    changed();
  });
  $("ruleset").addEventListener("change", (e) => { state.ruleset = e.target.value; changed(); });
  $("overlay").addEventListener("input", (e) => { state.overlay = e.target.value.slice(0, LIMIT.overlay); changed(); });
  $("win-by").addEventListener("change", (e) => { state.by = e.target.value; changed(); });
  $("heavenly").addEventListener("change", (e) => { state.heavenly = e.target.checked; changed(); });
  $("discarded-hun").addEventListener("change", (e) => { state.dhun = e.target.checked; changed(); });
  $("hand-text").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); readText(); } });
  $("hand-text").addEventListener("change", readText);
  $("hand-text-go").addEventListener("click", readText);
  $("dealer").addEventListener("change", (e) => { state.dealer = Number(e.target.value); changed(); });
  $("winner").addEventListener("change", (e) => { state.winner = e.target.value === "draw" ? null : Number(e.target.value); changed(); });
  $("discarder").addEventListener("change", (e) => { state.discarder = Number(e.target.value); changed(); });
  $("dealer-sits").addEventListener("change", (e) => { state.sits = e.target.checked; changed(); });
  $("chan").addEventListener("change", (e) => { state.chan = e.target.checked; changed(); });
  $("stake").addEventListener("change", (e) => {
    const v = Number(e.target.value);
    state.stake = v > 0 && v <= LIMIT.stake ? v : 1;
    changed();
  });
  $("seat-rows").addEventListener("change", (e) => {
    const inp = e.target;
    if (inp.dataset.name !== undefined) {      // a name travels in names=A,B,C: no commas
      state.names[Number(inp.dataset.name)] = inp.value.replace(/,/g, " ").trim().slice(0, LIMIT.name);
      changed();
      return;
    }
    const v = Math.max(0, Math.floor(Number(inp.value)) || 0);
    if (inp.dataset.pull) state.pulls[Number(inp.dataset.pull)] = Math.min(v, state.maxPulls);
    if (inp.dataset.kong) {
      const [s, k] = inp.dataset.kong.split(".").map(Number);
      state.kongs[s][k] = v;
      state.kongs[s] = clampKongs(state.kongs[s]);
    }
    changed();
  });
}

async function start() {
  const errors = fromQuery(location.search);
  applyLang();
  buildPad();
  wire();
  linkProblems(errors);
  try { await loadRulesets(); } catch (e) { $("ruleset-title").textContent = tr("busy"); }
  if (state.hand.length < needed()) state.target = "hand";
  else if (!state.win) state.target = "win";
  changed();
}

document.addEventListener("DOMContentLoaded", start);
