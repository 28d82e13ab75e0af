// Tiles and seats as the table page and the replay viewer draw them (no rule lives here).
"use strict";

const TK = {
  SUITS: { m: "萬", p: "筒", s: "條" },
  NUMS: "一二三四五六七八九",
  HONORS: "東南西北中發白",
  FLOWERS: "春夏秋冬梅蘭竹菊",
  WINDS: "東南西北",
  // a tile as an element (the SVG of static/tiles.js): a button when it can be tapped
  el(t, opts = {}) {
    const e = window.RulekitTiles.tileEl(t || "back", { tag: opts.button ? "button" : undefined,
                                                        extra: opts.cls || "" });
    if (opts.button) e.type = "button";
    return e;
  },
  label(t) { return window.RulekitTiles.tileLabel(t || "back"); },
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
  // a per-seat field that is a tile string ("1m5z") or a list of tiles
  tiles(v) { return Array.isArray(v) ? v : TK.parse(v); },
};
