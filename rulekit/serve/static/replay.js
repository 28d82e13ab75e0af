// The replay viewer: a finished hand's record, stepped event by event; every seat's tiles
// are shown (the hand is over). The state at each step is rebuilt from the record's events.
"use strict";

const $ = (id) => document.getElementById(id);
const view = { rec: null, states: [], i: 0 };

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
  if (!e) return "The wall is built; nothing dealt yet.";
  const names = { deal: "is dealt", indicator: "turns the indicator", draw: "draws", replacement: "draws a replacement",
    discard: "discards", pung: "pungs 碰", kong: "kongs 杠", concealed_kong: "declares a concealed kong 暗杠",
    golden_kong: "declares a golden kong 金杠", added_kong: "adds to a pung 明杠", win: "wins 和",
    draw_game: "— the wall is drawn out 荒莊", chan: "— 鏟" };
  return `Seat ${e.seat} ${names[e.action] || e.action}` + (e.tile ? " " + TK.label(e.tile) + ` (${e.tile})` : "") +
    (e.rule && e.action !== "deal" ? ` · ${e.rule}` : "");
}

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
    b.textContent = `${TK.wind(s, rec.dealer, rec.players.length)} Seat ${s} · ${rec.players[s]}`;
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
  out.textContent = r.winner == null ? "荒莊: no winner." :
    `Seat ${r.winner} won (${r.win_by}), ${r.total_fan} 番: ${r.patterns.join(", ")}. Payments: ${r.payments.join(" / ")}`;
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
  $("title").textContent = `Hand ${data.hand + 1} · ${data.ruleset}`;
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
