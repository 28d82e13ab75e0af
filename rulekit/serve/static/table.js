// The table page: the lobby at /tables, a seat at /tables/ID?seat=S&token=T.
// It speaks the seat's WebSocket protocol (docs/bots.md) like any bot; `view=1` adds the
// `state` messages it draws from. No rule lives here: legal actions come from the server.
// Labels follow the calculator's language toggle (TK.t, table-common.js); a win's score and
// its transfers are drawn by the calculator's own views (result-view.js).
"use strict";

const $ = (id) => document.getElementById(id);
const KINDS = ["human", "greedy", "value", "random", "remote"];
const KEYS = { w: "win", p: "pung", k: "kong", x: "pass", Escape: "pass" };

const page = {
  id: null, seat: 0, token: "", ws: null, state: null, legal: [], selected: null,
  deadline: 0, retry: 500, closed: false,
};

// ---- lobby -------------------------------------------------------------------------------
async function lobby() {
  $("lobby").hidden = false;
  const sel = $("ruleset");
  try {
    const r = await fetch("/v1/rulesets");
    const data = await r.json();
    for (const rs of data.rulesets) sel.append(new Option(rs.name + (rs.title ? " · " + rs.title : ""), rs.name));
  } catch (e) { sel.append(new Option("tianjin", "tianjin")); }
  sel.append(new Option(TK.t("overlayChoice"), "__overlay__"));
  sel.addEventListener("change", () => { $("overlay-box").hidden = sel.value !== "__overlay__"; });
  document.querySelectorAll(".seat-kind").forEach((s, i) => {
    KINDS.forEach((k) => s.append(new Option(TK.t("kinds")[k], k)));
    s.value = i === 0 ? "human" : "greedy";
  });
  $("create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("create-error").textContent = "";
    const body = { seats: [...document.querySelectorAll(".seat-kind")].map((s) => s.value),
                   hands: Number($("hands").value), think_time: Number($("think").value) };
    if (sel.value === "__overlay__") body.ruleset_yaml = $("overlay").value;
    else body.ruleset = sel.value;
    const r = await fetch("/v1/tables", { method: "POST", body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) { $("create-error").textContent = data.error.message; return; }
    showLinks(data);
  });
}

function showLinks(data) {
  $("links").hidden = false;
  const list = $("link-list");
  list.replaceChildren();
  data.seats.forEach((s) => {
    const li = document.createElement("li");
    if (!s.link) { li.textContent = TK.t("botSeat", s.seat, TK.t("kinds")[s.kind] || s.kind); list.append(li); return; }
    const a = document.createElement("a");
    a.href = s.link; a.className = "sit"; a.dataset.seat = s.seat;
    a.textContent = s.kind === "remote" ? TK.t("remoteSeat", s.seat) : TK.t("sitAt", s.seat);
    const url = document.createElement("input");
    url.readOnly = true; url.className = "link-url";
    url.value = new URL(s.kind === "remote" ? s.ws : s.link, location.href).href
      .replace(/^http/, s.kind === "remote" ? "ws" : "http");
    url.setAttribute("aria-label", `seat ${s.seat} link`);
    li.append(a, url);
    list.append(li);
  });
}

// ---- the table ---------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = `seat=${page.seat}&token=${encodeURIComponent(page.token)}&view=1`;
  const ws = new WebSocket(`${proto}//${location.host}/v1/tables/${page.id}/ws?${q}`);
  page.ws = ws;
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  let opened = false;
  ws.onopen = () => { opened = true; page.retry = 500; say(""); };
  ws.onclose = async (ev) => {
    if (ev.code === 4403) { fatal(TK.t("noSeat")); return; }
    if (page.state && page.state.table.status === "finished") return;
    if (!opened) {                 // refused before it opened: the browser hides why; ask
      try {
        const q = `seat=${page.seat}&token=${encodeURIComponent(page.token)}`;
        const r = await fetch(`/v1/tables/${page.id}?${q}`);
        if (r.status === 403 || r.status === 404) { fatal((await r.json()).error.message); return; }
      } catch (e) { /* the server is away: retry below */ }
    }
    say(TK.t("lost"));
    setTimeout(connect, page.retry);
    page.retry = Math.min(page.retry * 2, 8000);
  };
}

function onMessage(m) {
  if (m.type === "state") { page.state = m; page.legal = m.legal || []; draw(); }
  else if (m.type === "request") { page.legal = m.legal; if (page.state) page.state.observation = m.observation; draw(); }
  else if (m.type === "error") { say(m.message); }
  else if (m.type === "end") { page.legal = []; }
}

function send(action) {
  if (!page.ws || page.ws.readyState !== 1) return;
  page.ws.send(JSON.stringify(action));
  page.legal = []; page.selected = null;
  draw();
}

function say(text) { $("message").textContent = text; }
function fatal(text) { $("table").hidden = true; $("fatal").hidden = false; $("fatal").textContent = text; }

function seatName(s, st) {
  const obs = st.observation;
  const kind = st.table.seats[s].kind;
  const n = st.table.seats.length;
  const wind = obs ? TK.t("winds")[((s - obs.dealer) % n + n) % n] : "";
  return `${wind} ${s === page.seat ? TK.t("you") : TK.t("seat", s)}` +
    (s !== page.seat ? " · " + (TK.t("kinds")[kind] || kind) : "");
}

function draw() {
  const st = page.state;
  if (!st) return;
  const t = st.table, obs = st.observation;
  $("hand-no").textContent = TK.t("handNo", Math.min(t.hand + 1, t.hands), t.hands) +
    (t.status === "finished" ? " · " + TK.t("finished") : "");
  $("indicator").replaceChildren(obs && obs.indicator ? TK.el(obs.indicator, { cls: "small" }) : "–");
  $("hun").replaceChildren(...(obs && obs.hun ? obs.hun.map((h) => TK.el(h, { cls: "small hun" })) : []));
  $("wall-left").textContent = obs ? obs.wall_left : "–";
  const waiting = t.seats.filter((s) => !s.joined && (s.kind === "human" || s.kind === "remote"));
  $("turn").textContent = waiting.length ? TK.t("waiting", waiting.map((s) => s.seat).join(", "))
    : page.legal.length ? TK.t("yourMove") : t.pending.length ? TK.t("toMove", t.pending.join(",")) : "";
  page.deadline = st.seconds_left != null ? Date.now() + st.seconds_left * 1000 : 0;
  drawOthers(st);
  drawMe(st);
  drawResult(st);
  drawTotals(st);
  tick();
}

function drawOthers(st) {
  const box = $("others");
  box.replaceChildren();
  const obs = st.observation;
  const n = st.table.seats.length;
  for (let i = 1; i < n; i++) {
    const s = (page.seat + i) % n;
    const div = document.createElement("div");
    div.className = "seat other" + (st.table.pending.includes(s) ? " active" : "");
    div.dataset.seat = s;
    const head = document.createElement("div");
    head.className = "seat-head";
    head.innerHTML = "";
    const name = document.createElement("b"); name.textContent = seatName(s, st);
    const held = document.createElement("span"); held.className = "muted";
    held.textContent = obs ? " " + TK.t("tilesHeld", obs.tiles_held[s]) : "";
    const tot = document.createElement("span"); tot.className = "total"; tot.textContent = fmt(st.table.totals[s]);
    head.append(name, held, tot);
    const melds = document.createElement("div"); melds.className = "melds";
    if (obs) {
      obs.melds[s].forEach((m) => melds.append(TK.meldEl(m)));
      TK.tiles(obs.flowers[s]).forEach((f) => melds.append(TK.el(f, { cls: "small flower" })));
    }
    const river = document.createElement("div"); river.className = "river";
    if (obs) {
      const ds = TK.tiles(obs.discards[s]);
      ds.forEach((d, j) => river.append(TK.el(d, { cls: "small" +
        (obs.last_discard && obs.last_discard.seat === s && j === ds.length - 1 ? " last" : "") })));
    }
    div.append(head, melds, river);
    box.append(div);
  }
}

function drawMe(st) {
  const obs = st.observation;
  $("me-name").textContent = seatName(page.seat, st);
  $("me-total").textContent = fmt(st.table.totals[page.seat]);
  $("me").classList.toggle("active", page.legal.length > 0);
  const river = $("me-river"), melds = $("me-melds"), hand = $("hand");
  river.replaceChildren(); melds.replaceChildren(); hand.replaceChildren();
  if (!obs) return;
  TK.tiles(obs.discards[page.seat]).forEach((d) => river.append(TK.el(d, { cls: "small" })));
  obs.melds[page.seat].forEach((m) => melds.append(TK.meldEl(m)));
  TK.tiles(obs.flowers[page.seat]).forEach((f) => melds.append(TK.el(f, { cls: "small flower" })));
  const discardable = new Set(page.legal.filter((a) => a.action === "discard").map((a) => a.tile));
  const tiles = TK.parse(obs.hand);
  let drawnAt = -1;
  if (obs.drawn) {                       // the drawn tile stands apart at the right
    drawnAt = tiles.lastIndexOf(obs.drawn);
    if (drawnAt >= 0) { tiles.splice(drawnAt, 1); tiles.push(obs.drawn); drawnAt = tiles.length - 1; }
  }
  tiles.forEach((t, i) => {
    const b = TK.el(t, { button: true, cls: ((obs.hun || []).includes(t) ? "hun " : "") + (i === drawnAt ? "drawn" : "") });
    b.dataset.index = i;
    b.disabled = !discardable.has(t);
    if (page.selected === i) b.classList.add("selected");
    b.addEventListener("click", () => tapTile(i, t));
    hand.append(b);
  });
  const actions = $("actions");
  actions.replaceChildren();
  page.legal.filter((a) => a.action !== "discard").forEach((a) => {
    const b = document.createElement("button");
    b.type = "button"; b.className = "act " + a.action; b.dataset.action = a.action;
    b.textContent = TK.t(a.action) + (a.tile ? " " + TK.label(a.tile) : "") +
      (a.kind ? ` (${TK.t(a.kind)})` : "") + (a.count ? ` ×${a.count}` : "") +
      (a.action === "win" && obs.win ? " · " + window.RulekitResult.verdictText({ win: true, total_fan: obs.win.fan }) : "");
    b.addEventListener("click", () => send(a));
    actions.append(b);
  });
  if (discardable.size) {
    const hint = document.createElement("span");
    hint.className = "muted hint";
    hint.textContent = TK.t("tapTwice");
    actions.append(hint);
  }
}

function tapTile(i, t) {
  if (page.selected === i) {
    const a = page.legal.find((x) => x.action === "discard" && x.tile === t);
    if (a) send(a);
    return;
  }
  page.selected = i;
  document.querySelectorAll("#hand .t").forEach((b) => b.classList.toggle("selected", Number(b.dataset.index) === i));
}

function drawResult(st) {
  const last = st.last;
  $("result").hidden = !last;
  if (!last) return;
  const R = window.RulekitResult;                    // the calculator's views (result-view.js)
  const n = st.table.seats.length;
  const name = (s) => seatName(s, st);
  $("result-title").textContent = last.winner == null ? TK.t("draw", last.hand + 1)
    : TK.t("wins", last.hand + 1, last.winner === page.seat ? TK.t("you") : TK.t("seat", last.winner),
           TK.t("by")[last.win_by] || last.win_by, last.winner === page.seat);
  const box = $("result-score");
  box.replaceChildren();
  if (last.score) {
    const hand = document.createElement("div"); hand.className = "hand revealed";
    if (last.hand_doc) {
      TK.parse(last.hand_doc.hand).forEach((t) => hand.append(TK.el(t, { cls: "small" })));
      hand.append(TK.el(last.hand_doc.win_tile, { cls: "small win" }));
      (last.hand_doc.melds || []).forEach((m) => TK.parse(m.tiles).forEach((t) => hand.append(TK.el(t, { cls: "small meldt" }))));
    }
    box.append(hand, ...R.score(last.score));
  }
  const body = $("settle").tBodies[0];
  body.replaceChildren();
  for (let s = 0; s < n; s++) {
    const tr = document.createElement("tr");
    if (s === page.seat) tr.className = "mine";
    const who = document.createElement("td"); who.textContent = name(s);
    const pay = document.createElement("td"); R.payCell(pay, last.payments[s]); pay.classList.add("pay");
    const tot = document.createElement("td"); tot.textContent = fmt(last.totals[s]);
    tr.append(who, pay, tot);
    body.append(tr);
  }
  $("transfers").replaceChildren(...R.transfers(last.transfers, name));
  const a = document.createElement("a");
  a.href = `/tables/${page.id}/hands/${last.hand}`; a.textContent = TK.t("replay"); a.id = "replay";
  $("replay-link").replaceChildren(a);
}

function drawTotals(st) {
  const body = $("totals").tBodies[0];
  body.replaceChildren();
  st.table.totals.forEach((v, s) => {
    const tr = document.createElement("tr");
    if (s === page.seat) tr.className = "mine";
    const a = document.createElement("td"); a.textContent = seatName(s, st);
    const b = document.createElement("td"); b.textContent = fmt(v);
    tr.append(a, b); body.append(tr);
  });
  const f = st.table.finished_hands;
  $("finished").textContent = f.length ? TK.t("finishedHands", f.map((h) => h + 1).join(", ")) : "";
}

function fmt(v) { return v == null ? "" : (v > 0 ? "+" : "") + (Math.round(v * 100) / 100); }

function tick() {
  const st = page.state;
  if (page.deadline && page.legal.length && st && st.table.status !== "finished") {
    const left = Math.max(0, Math.round((page.deadline - Date.now()) / 1000));
    $("timer").textContent = `${left} s`;
  } else $("timer").textContent = "";
}

function keys(ev) {
  if (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
  const want = KEYS[ev.key];
  if (want) {
    const a = page.legal.find((x) => x.action === want);
    if (a) { ev.preventDefault(); send(a); }
    return;
  }
  const tiles = [...document.querySelectorAll("#hand .t:not(:disabled)")];
  if (!tiles.length) return;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    ev.preventDefault();
    const cur = tiles.indexOf(document.activeElement);
    const next = cur < 0 ? tiles.length - 1 : (cur + (ev.key === "ArrowRight" ? 1 : -1) + tiles.length) % tiles.length;
    tiles[next].focus();
  }
}

function start() {
  TK.langButton(() => {
    if (page.state) draw();
    document.querySelectorAll(".seat-kind option").forEach((o) => { o.textContent = TK.t("kinds")[o.value]; });
    const ov = document.querySelector('#ruleset option[value="__overlay__"]');
    if (ov) ov.textContent = TK.t("overlayChoice");
  });
  const m = location.pathname.match(/^\/tables\/([A-Za-z0-9_-]+)$/);
  if (!m) { lobby(); return; }
  const q = new URLSearchParams(location.search);
  page.id = m[1]; page.seat = Number(q.get("seat") || 0); page.token = q.get("token") || "";
  $("table").hidden = false;
  document.addEventListener("keydown", keys);
  setInterval(tick, 500);
  connect();
}

start();
