// The replay viewer: a finished hand's record, stepped event by event; every seat's tiles
// are shown (the hand is over). The state at each step is rebuilt from the record's events;
// the end shows the win with the calculator's breakdown (result-view.js).
"use strict";

const $ = (id) => document.getElementById(id);
const view = { rec: null, states: [], i: 0, score: null };

function rebuild(rec) {
  const n = rec.players.length;
  const seats = Array.from({ length: n }, () => ({ hand: [], river: [], melds: [], flowers: [] }));
  const take = (s, t, k = 1) => { for (let j = 0; j < k; j++) { const at = seats[s].hand.indexOf(t); if (at >= 0) seats[s].hand.splice(at, 1); } };
  const gain = (s, t) => { if (t[1] === "f") seats[s].flowers.push(t); else seats[s].hand.push(t); };
  const states = [snapshot(seats, null)];
  let lastDiscard = null, lastAdded = null;
  rec.events.forEach((e) => {
    const s = e.seat, t = e.tile;
    switch (e.action) {
      case "deal": TK.parse((e.rule || "").split(":")[1] || "").forEach((x) => gain(s, x)); break;
      case "draw": case "replacement": if (t) gain(s, t); break;
      case "discard": take(s, t); seats[s].river.push(t); lastDiscard = s; break;
      case "pung": case "kong":
        if (lastDiscard != null) seats[lastDiscard].river.pop();
        take(s, t, e.action === "pung" ? 2 : 3);
        seats[s].melds.push({ kind: e.action, type: e.action === "pung" ? "pung" : "exposed", tile: t }); break;
      case "concealed_kong": case "golden_kong":
        take(s, t, 4); seats[s].melds.push({ kind: "kong", type: e.action.split("_")[0], tile: t }); break;
      case "added_kong": {
        take(s, t);
        const m = seats[s].melds.find((x) => x.tile === t && x.kind === "pung");
        if (m) { m.kind = "kong"; m.type = "exposed"; }
        lastAdded = s; break;
      }
      case "win":
        if ((e.rule || "").startsWith("點炮") && lastDiscard != null) { seats[lastDiscard].river.pop(); seats[s].hand.push(t); }
        else if ((e.rule || "").startsWith("搶杠") && lastAdded != null) {
          const m = seats[lastAdded].melds.find((x) => x.tile === t && x.kind === "kong");
          if (m) { m.kind = "pung"; m.type = "pung"; }
          seats[s].hand.push(t);
        }
        break;
      default: break;
    }
    states.push(snapshot(seats, e));
  });
  return states;
}

function snapshot(seats, e) {
  return { event: e, seats: seats.map((x) => ({ hand: sortTiles(x.hand), river: [...x.river],
    melds: x.melds.map((m) => ({ ...m })), flowers: [...x.flowers] })) };
}

function sortTiles(ts) {
  const order = { m: 0, p: 1, s: 2, z: 3, f: 4 };
  return [...ts].sort((a, b) => order[a[1]] - order[b[1]] || a[0] - b[0]);
}

function describe(e) {
  if (!e) return TK.t("start");
  const who = `${TK.t("winds")[seatWind(e.seat)]} ${TK.t("seat", e.seat)}`;
  return `${who} ${TK.t("did")[e.action] || e.action}` + (e.tile ? " " + TK.label(e.tile) + ` (${e.tile})` : "") +
    (e.rule && e.action !== "deal" ? ` · ${e.rule}` : "");
}

function seatWind(s) { const n = view.rec.players.length; return ((s - view.rec.dealer) % n + n) % n; }

function draw() {
  const st = view.states[view.i], rec = view.rec;
  $("step").textContent = `${view.i} / ${view.states.length - 1}`;
  $("event").textContent = describe(st.event);
  const box = $("seats");
  box.replaceChildren();
  st.seats.forEach((x, s) => {
    const div = document.createElement("div");
    div.className = "seat" + (st.event && st.event.seat === s ? " active" : "");
    div.dataset.seat = s;
    const head = document.createElement("div"); head.className = "seat-head";
    const b = document.createElement("b");
    b.textContent = `${TK.t("winds")[seatWind(s)]} ${TK.t("seat", s)} · ${TK.t("kinds")[rec.players[s]] || rec.players[s]}`;
    head.append(b);
    const hand = document.createElement("div"); hand.className = "hand revealed";
    x.hand.forEach((t) => hand.append(TK.el(t, { cls: "small" })));
    const melds = document.createElement("div"); melds.className = "melds";
    x.melds.forEach((m) => melds.append(TK.meldEl(m)));
    x.flowers.forEach((f) => melds.append(TK.el(f, { cls: "small flower" })));
    const river = document.createElement("div"); river.className = "river";
    x.river.forEach((t) => river.append(TK.el(t, { cls: "small" })));
    div.append(head, hand, melds, river);
    box.append(div);
  });
  const out = $("outcome");
  out.hidden = view.i !== view.states.length - 1;
  const r = rec.result;
  const line = document.createElement("p");
  line.textContent = r.winner == null ? TK.t("noWinner") :
    TK.t("won", TK.t("seat", r.winner), TK.t("by")[r.win_by] || r.win_by, r.total_fan, r.payments.join(" / "));
  out.replaceChildren(line);
  if (view.score) out.append(...window.RulekitResult.score(view.score));
}

// the winning hand's score by name, with the calculator's breakdown: the record keeps pattern
// ids only (it is what `rulekit replay` reads), so the server scores its winning hand again
async function scoreOf(tid, rec) {
  if (rec.result.winner == null || !rec.result.hand) return null;
  try {
    const y = await fetch(`/v1/tables/${tid}/ruleset.yaml`);
    const rules = y.ok ? { ruleset_yaml: await y.text() } : { ruleset: rec.ruleset };
    const r = await fetch("/v1/score", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify({ ...rules, hand: rec.result.hand }) });
    return r.ok ? await r.json() : null;
  } catch (e) { return null; }
}

function go(i) { view.i = Math.max(0, Math.min(view.states.length - 1, i)); draw(); }

async function start() {
  const m = location.pathname.match(/^\/tables\/([A-Za-z0-9_-]+)\/hands\/(\d+)$/);
  if (!m) return;
  const url = `/v1/tables/${m[1]}/hands/${m[2]}`;
  $("export").href = url;
  $("back").href = `/tables/${m[1]}`;
  const r = await fetch(url);
  const data = await r.json();
  if (!r.ok) { $("replay").hidden = true; $("fatal").hidden = false; $("fatal").textContent = data.error.message; return; }
  view.rec = data;
  view.states = rebuild(data);
  view.score = await scoreOf(m[1], data);
  const head = () => { $("title").textContent = TK.t("replayHead", data.hand + 1, data.ruleset); };
  head();
  TK.langButton(() => { head(); draw(); });
  $("indicator").replaceChildren(TK.el(data.indicator, { cls: "small" }));
  const ind = data.events.find((e) => e.action === "indicator");
  const hun = ind && ind.rule ? TK.parse((ind.rule.split("hun")[1] || "").replace(/ /g, "")) : [];
  $("hun").replaceChildren(...hun.map((h) => TK.el(h, { cls: "small hun" })));
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(view.i - 1);
  $("next").onclick = () => go(view.i + 1);
  $("last").onclick = () => go(view.states.length - 1);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowRight") go(view.i + 1);
    else if (ev.key === "ArrowLeft") go(view.i - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(view.states.length - 1);
  });
  go(0);
}

start();
