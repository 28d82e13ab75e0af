// The score and settle views the calculator and the table page share: each function takes
// the API's JSON (a `/v1/score` result, a `/v1/settle` transfer list) and returns elements.
// No rule lives here: every value and name a player reads comes from the server.
// Load after tiles.js; defines window.RulekitResult:
//   score(r)               -> [verdict, detail, pattern chips, explain list, arrangement]
//   verdictText(r)         -> "和 14 番" / "Win: 14 fan" / "不和：番數不夠"
//   reasonText(r)          -> the reason a hand does not win, by name, in the chosen language
//   transfers(list, seat)  -> <li> per transfer ("East → South: 3 (the win)"); seat(s) names a seat
//   payCell(td, amount)    -> writes a signed amount into a cell, class "gain" / "loss"
"use strict";

(function () {
  const T = window.RulekitTiles;
  const W = {
    zh: { win: (n) => `和 ${n} 番`, nowin: (r) => `不和：${r}`, detail: (h, k) => `手牌 ${h} + 杠 ${k}` },
    en: { win: (n) => `Win: ${n} fan`, nowin: (r) => `No win: ${r}`, detail: (h, k) => `hand ${h} + kongs ${k}` },
  };
  const w = () => W[T.lang()];

  function el(tag, cls, text, id) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (id) e.id = id;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function tiles(text) {
    const out = [];
    for (const [, digits, suit] of (text || "").matchAll(/([1-9]+)([mpszf])/g)) {
      for (const d of digits) out.push(d + suit);
    }
    return out.filter(T.valid);
  }

  const named = (names, code) => (names && names[T.lang()]) || code || "";
  const reasonText = (r) => named(r.reason_name, r.reason);
  const verdictText = (r) => (r.win ? w().win(r.total_fan) : w().nowin(reasonText(r)));

  function score(r) {
    const head = el("p", "verdict " + (r.win ? "win" : "nowin"), verdictText(r), "verdict");
    const detail = el("p", "muted", r.win ? w().detail(r.hand_fan, r.kong_fan) : "");
    const names = el("p", "chips", undefined, "pattern-names");
    (r.pattern_names || []).forEach((n) => names.append(el("span", "chip", n)));
    const explain = el("ol", "explain", undefined, "explain");
    (r.explain || []).forEach((line) => explain.append(el("li", "", line)));
    const groups = el("div", "arrangement");
    (r.arrangement || []).forEach((g) => {
      const grp = el("span", "group" + (g.declared ? " declared" : "") + (g.win ? " haswin" : ""));
      tiles(g.tiles).forEach((t) => grp.append(T.tileEl(t, {})));
      if (g.hun_as) grp.append(el("small", "", "混→" + T.tileLabel(g.hun_as)));
      groups.append(grp);
    });
    return [head, detail, names, explain, groups];
  }

  function transfers(list, seat) {
    return (list || []).map((t) => el("li", "", `${seat(t.from)} → ${seat(t.to)}: ${t.amount} (${named(t.why_name, t.why)})`));
  }

  function payCell(td, p) {
    td.textContent = p == null ? "" : (p > 0 ? "+" : "") + Math.round(p * 100) / 100;
    td.classList.remove("gain", "loss");
    if (p > 0) td.classList.add("gain");
    else if (p < 0) td.classList.add("loss");
  }

  window.RulekitResult = { score, verdictText, reasonText, transfers, payCell };
})();
