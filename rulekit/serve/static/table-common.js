// Tiles and seats as the table page and the replay viewer draw them (no rule lives here).
"use strict";

const TK = {
  SUITS: { m: "萬", p: "筒", s: "條" },
  NUMS: "一二三四五六七八九",
  HONORS: "東南西北中發白",
  FLOWERS: "春夏秋冬梅蘭竹菊",
  WINDS: "東南西北",
  label(t) {
    if (!t) return "🀫";
    const r = Number(t[0]), s = t[1];
    if (s === "z") return TK.HONORS[r - 1] || t;
    if (s === "f") return TK.FLOWERS[r - 1] || t;
    return TK.NUMS[r - 1] + (TK.SUITS[s] || "");
  },
  // a tile as an element: a button when it can be tapped
  el(t, opts = {}) {
    const e = document.createElement(opts.button ? "button" : "span");
    if (opts.button) e.type = "button";
    e.className = "t " + (t ? t[1] : "back") + (opts.cls ? " " + opts.cls : "");
    e.dataset.tile = t || "";
    e.title = t || "hidden";
    e.textContent = TK.label(t);
    return e;
  },
  // "46m123s" -> ["4m","6m","1s","2s","3s"]
  parse(text) {
    const out = []; let digits = [];
    for (const ch of text || "") {
      if (ch >= "0" && ch <= "9") digits.push(ch);
      else if ("mpszf".includes(ch)) { digits.forEach((d) => out.push(d + ch)); digits = []; }
    }
    return out;
  },
  // seat 2 with dealer 1: 南 (the dealer sits East)
  wind(seat, dealer, n) { return TK.WINDS[((seat - dealer) % n + n) % n]; },
  meldEl(m) {
    const box = document.createElement("span");
    box.className = "meld " + (m.type || m.kind);
    const n = m.kind === "pung" ? 3 : 4;
    for (let i = 0; i < n; i++) box.append(TK.el(m.tile, { cls: "small" }));
    return box;
  },
};
