// Mahjong tiles drawn as SVG made for rulekit: every glyph is a path, so a tile reads the same
// on a phone without a CJK font. No outside asset (the pages run under default-src 'self').
//
// Load it before the page's own script (<script src="/static/tiles.js" defer>); it defines
// window.RulekitTiles:
//   tileSVG(name)        -> an SVG string of the tile ("5m", "1p", "9s", "1z".."7z", "1f".."8f",
//                           or "back" for a face-down tile); 30×40 units, sized by CSS
//   tileEl(name, opts)   -> a <span class="t SUIT" data-tile=name> holding that SVG, with a
//                           title and aria-label in the language chosen (opts.tag: another tag)
//   tileLabel(name, lang)-> "五萬" / "5 Characters", "東" / "East wind" ... (lang "zh" | "en")
//   lang() / setLang(l)  -> the language of labels, remembered in localStorage "rulekit.lang"
"use strict";

(function () {
  const RED = "#b3261e", GREEN = "#17703a", BLUE = "#1a4f9c", INK = "#1d2a44", FACE = "#fbf8ee";

  // Glyphs on a 10×10 grid, drawn as strokes (round caps), hand-made for these tiles.
  const GLYPH = {
    n1: "M1 5L9 5",
    n2: "M2 3L8 3M1 7.2L9 7.2",
    n3: "M2 2L8 2M3 5L7 5M1 8.5L9 8.5",
    n4: "M1.5 2L1.5 9M1.5 2L8.5 2L8.5 9M1.5 9L8.5 9M4 2L4 5Q4 6.5 2.5 7M6 2L6 6Q6 7 7.5 7L8.5 7",
    n5: "M2 1.5L8 1.5M4.6 1.5L3.6 8.5M2.6 5L7.2 5L7.2 8.5M1 8.5L9 8.5",
    n6: "M4.8 0.8L5.8 2.2M1.5 3.6L8.5 3.6M4 5.6L2 8.8M6 5.6L8.5 8.8",
    n7: "M1.5 5.2L8.5 4M4.5 1L4.5 7.5Q4.5 9 6.5 9L8.6 9L8.6 7.4",
    n8: "M4 2Q4 6 1.5 8.8M6 2Q6.5 6 9 8.8",
    n9: "M1.5 3.6L6.5 3.6Q6.3 8.6 8.5 8.6L9.1 7M4.6 1Q4.6 6.5 1.5 9.2",
    wan: "M1 2L9 2M3.5 0.8L3.5 3.2M6.5 0.8L6.5 3.2M2.5 4L2.5 6.6M2.5 4L7.5 4L7.5 6.6M2.5 6.6L7.5 6.6" +
         "M5 4L5 6.6M2.5 5.3L7.5 5.3M1.5 9.6L1.5 7.7L8.5 7.7L8.5 9.6M5 6.6L5 8.4M4.2 8.2L3.6 9.2L6.2 9.2",
    z1: "M1.5 2L8.5 2M2.5 3.5L7.5 3.5L7.5 7L2.5 7ZM2.5 5.25L7.5 5.25M5 0.8L5 9.8M5 7L1.5 9.5M5 7L8.5 9.5",
    z2: "M1.5 1.8L8.5 1.8M5 0.5L5 3M2 3.5L2 9.6M2 3.5L8 3.5L8 9.6L7 9.6M3.8 4.5L4.4 5.5M6.2 4.5L5.6 5.5" +
        "M3.2 6.2L6.8 6.2M3.5 7.8L6.5 7.8M5 6.2L5 9.6",
    z3: "M1.5 1.8L8.5 1.8M2 4L2 9L8 9L8 4ZM4 1.8L4 6Q4 7 2.5 7.5M6 1.8L6 6.5Q6 7.5 7.8 7.5",
    z4: "M3.8 1L3.8 9M1 4.5L3.8 4.5M1 8.5L3.8 7M6.2 1L6.2 8.5Q6.2 9.3 7.2 9.3L9 9.3L9 8M6.2 4.5L8.8 3.2",
    z5: "M2 3L8 3L8 7L2 7ZM5 0.8L5 9.6",
    z6: "M1.2 1.2L3.8 2.6L1.5 4.2M5.5 1L8.8 4M8.8 1.3L7.2 2.6M1.5 5L4 5L4 6.5L1.8 6.5L1.8 8L4.2 8" +
        "Q4.2 9.6 3 9.6M6 4.8L6 6Q6 6.6 5.2 6.8M6 4.8L7.6 4.8L7.6 6.2Q7.6 6.8 8.8 6.8M5.2 7.3L8.5 7.3" +
        "Q7.5 9 5 9.8M6 8L9 9.8",
  };
  // Latin digits and wind letters on a 4×6 grid, for the corner index.
  const MARK = {
    1: "M2 0L2 6M0.8 1.2L2 0", 2: "M0 0L4 0L4 3L0 3L0 6L4 6", 3: "M0 0L4 0L4 6L0 6M0.8 3L4 3",
    4: "M0 0L0 3.6L4 3.6M3 0L3 6", 5: "M4 0L0 0L0 3L4 3L4 6L0 6", 6: "M4 0L0 0L0 6L4 6L4 3L0 3",
    7: "M0 0L4 0L1.6 6", 8: "M0 0L4 0L4 6L0 6ZM0 3L4 3", 9: "M4 3L0 3L0 0L4 0L4 6L0 6",
    E: "M4 0L0 0L0 6L4 6M0 3L3 3", S: "M4 0L0 0L0 3L4 3L4 6L0 6", W: "M0 0L1 6L2 2.5L3 6L4 0",
    N: "M0 6L0 0L4 6L4 0",
  };

  const ZH = {
    num: "一二三四五六七八九", suit: { m: "萬", p: "筒", s: "條" },
    z: "東南西北中發白", f: "春夏秋冬梅蘭竹菊",
  };
  const EN = {
    suit: { m: "Characters", p: "Circles", s: "Bamboo" },
    z: ["East wind", "South wind", "West wind", "North wind", "Red dragon", "Green dragon",
        "White dragon"],
    f: ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo flower", "Chrysanthemum"],
  };

  function stroke(d, color, x, y, scale, width) {
    return `<path d="${d}" transform="translate(${x} ${y}) scale(${scale})" fill="none" ` +
      `stroke="${color}" stroke-width="${width / scale}" stroke-linecap="round" ` +
      `stroke-linejoin="round"/>`;
  }

  function dot(cx, cy, r, color) {
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${color}"/>` +
      `<circle cx="${cx}" cy="${cy}" r="${(r * 0.62).toFixed(2)}" fill="${FACE}"/>` +
      `<circle cx="${cx}" cy="${cy}" r="${(r * 0.34).toFixed(2)}" fill="${color}"/>`;
  }

  function stick(cx, cy, h, color) {
    const top = cy - h / 2;
    return `<rect x="${cx - 1.6}" y="${top}" width="3.2" height="${h}" rx="1.5" fill="${color}"/>` +
      `<path d="M${cx - 1.6} ${cy}L${cx + 1.6} ${cy}M${cx} ${top + 1}L${cx} ${top + h - 1}" ` +
      `stroke="${FACE}" stroke-width="0.6" opacity="0.75"/>`;
  }

  // circle positions per rank: [x, y, r, colour]
  const CIRCLES = {
    1: [[15, 19, 10, BLUE]],
    2: [[15, 10.5, 6.5, GREEN], [15, 27.5, 6.5, BLUE]],
    3: [[8.5, 8.5, 5, BLUE], [15, 19, 5, RED], [21.5, 29.5, 5, GREEN]],
    4: [[9, 11, 5.5, BLUE], [21, 11, 5.5, GREEN], [9, 27, 5.5, GREEN], [21, 27, 5.5, BLUE]],
    5: [[8.5, 9.5, 4.8, BLUE], [21.5, 9.5, 4.8, GREEN], [15, 19, 4.8, RED], [8.5, 28.5, 4.8, GREEN],
        [21.5, 28.5, 4.8, BLUE]],
    6: [[9.5, 8, 4.6, GREEN], [20.5, 8, 4.6, GREEN], [9.5, 19, 4.6, RED], [20.5, 19, 4.6, RED],
        [9.5, 30, 4.6, RED], [20.5, 30, 4.6, RED]],
    7: [[7.5, 6.5, 3.5, GREEN], [15, 10, 3.5, GREEN], [22.5, 13.5, 3.5, GREEN], [10, 22, 4, RED],
        [20, 22, 4, RED], [10, 31, 4, RED], [20, 31, 4, RED]],
    8: [6.5, 14.8, 23.2, 31.5].flatMap((y) => [[9.5, y, 3.9, BLUE], [20.5, y, 3.9, BLUE]]),
    9: [[8.5, BLUE], [19, RED], [29.5, GREEN]].flatMap(([y, c]) => [8, 15, 22].map((x) => [x, y, 4.2, c])),
  };
  // bamboo sticks per rank: [x, y, height, colour]
  const rows = (xs, ys, h, colour) => ys.flatMap((y) => xs.map((x) => [x, y, h, colour(x, y)]));
  const green = () => GREEN;
  const STICKS = {
    2: rows([15], [11, 27], 11, green),
    3: [[15, 11, 11, GREEN], [10, 27, 11, GREEN], [20, 27, 11, GREEN]],
    4: rows([10, 20], [11, 27], 11, (x, y) => (x === y - 1 || x === 20 && y === 27 ? BLUE : GREEN)),
    5: [...rows([8.5, 21.5], [11, 27], 11, green), [15, 19, 11, RED]],
    6: rows([8, 15, 22], [11, 27], 11, (x, y) => (y === 11 ? BLUE : GREEN)),
    7: [[15, 7, 8, RED], ...rows([8, 15, 22], [19, 30.5], 8.5, green)],
    8: rows([6.5, 12, 18, 23.5], [11, 27], 11, green),
    9: rows([8, 15, 22], [7.5, 19, 30.5], 9, (x) => (x === 15 ? RED : GREEN)),
  };

  const BIRD =                      // 一條: a small green bird on a branch
    `<path d="M6 31Q15 27 25 31" stroke="#7a5a2a" stroke-width="1.4" fill="none" stroke-linecap="round"/>` +
    `<path d="M9 23Q8 14 15 12Q22 13 21 21Q19 28 12 28Q9 27 9 23Z" fill="${GREEN}"/>` +
    `<path d="M12 27L6 33M13 27.5L9 35M15 27L13 35" stroke="${GREEN}" stroke-width="1.3" stroke-linecap="round"/>` +
    `<circle cx="18.5" cy="9.5" r="3.6" fill="${GREEN}"/><circle cx="19.5" cy="8.8" r="0.9" fill="${FACE}"/>` +
    `<path d="M21.8 9.6L25 10.6L21.8 11.4Z" fill="#d08a1a"/><path d="M17 6.2Q18 3.5 20.5 4.5" ` +
    `stroke="${RED}" stroke-width="1.2" fill="none" stroke-linecap="round"/>` +
    `<path d="M12 17Q15 21 18 17" stroke="${FACE}" stroke-width="0.9" fill="none"/>`;

  const FLOWER_COLOURS = ["#d45d8c", RED, "#d08a1a", BLUE, "#c2185b", "#7a3d8f", GREEN, "#b8860b"];

  function flower(rank) {
    const colour = FLOWER_COLOURS[rank - 1];
    const petals = rank <= 4 ? 5 : 6;
    let out = `<path d="M15 24Q14 30 16 35" stroke="${GREEN}" stroke-width="1.4" fill="none" stroke-linecap="round"/>` +
      `<path d="M15.5 30Q20 27 22 29Q19 32 15.5 31Z" fill="${GREEN}"/>`;
    for (let i = 0; i < petals; i++) {
      const a = (i / petals) * 360;
      out += `<ellipse cx="15" cy="11" rx="3.2" ry="6" fill="${colour}" opacity="0.9" ` +
        `transform="rotate(${a} 15 17)"/>`;
    }
    out += `<circle cx="15" cy="17" r="2.6" fill="#f2c230"/>`;
    return out + stroke(MARK[rank], INK, 2.6, 2.4, 0.85, 1.1);
  }

  function face(s, r) {
    if (s === "m") {
      return stroke(GLYPH["n" + r], INK, 6.5, 2.6, 1.7, 1.9) +
        stroke(GLYPH.wan, RED, 6.2, 19.6, 1.68, 1.5) + stroke(MARK[r], INK, 2.2, 2.2, 0.6, 0.9);
    }
    if (s === "p") return CIRCLES[r].map(([x, y, rad, c]) => dot(x, y, rad, c)).join("");
    if (s === "s") return r === 1 ? BIRD : STICKS[r].map(([x, y, h, c]) => stick(x, y, h, c)).join("");
    if (s === "f") return flower(r);
    if (r === 7) {                  // 白: the white dragon's blue frame
      return `<rect x="6" y="6" width="18" height="26" rx="1.5" fill="none" stroke="${BLUE}" stroke-width="2.2"/>` +
        `<rect x="9.2" y="9.2" width="11.6" height="19.6" fill="none" stroke="${BLUE}" stroke-width="1"/>`;
    }
    const colour = r === 5 ? RED : r === 6 ? GREEN : INK;
    const glyph = stroke(GLYPH["z" + r], colour, 4, r <= 4 ? 4 : 7.5, 2.2, 2);
    return r <= 4 ? glyph + stroke(MARK["ESWN"[r - 1]], BLUE, 13.3, 29.3, 0.85, 1.1) : glyph;
  }

  const cache = new Map();

  function valid(name) {
    if (typeof name !== "string" || !/^[1-9][mpszf]$/.test(name)) return false;
    const r = Number(name[0]);
    return !(name[1] === "z" && r > 7) && !(name[1] === "f" && r > 8);
  }

  function tileSVG(name) {
    const hit = cache.get(name);
    if (hit) return hit;
    const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40" width="30" height="40" ` +
      `class="tile-svg" aria-hidden="true" focusable="false">` +
      `<rect x="0.5" y="0.5" width="29" height="39" rx="3.6" fill="#cfc6ad"/>`;
    let body;
    if (name === "back") {
      body = `<rect x="0.9" y="0.9" width="28.2" height="36.4" rx="3.2" fill="#2c7a55" stroke="#1f5d3f"/>` +
        `<path d="M15 8L22 19L15 30L8 19Z" fill="none" stroke="#9fd3b5" stroke-width="1.2"/>`;
    } else if (valid(name)) {
      body = `<rect x="0.9" y="0.9" width="28.2" height="36.4" rx="3.2" fill="${FACE}" stroke="#e6dfcb" stroke-width="0.6"/>` +
        face(name[1], Number(name[0]));
    } else {
      body = `<rect x="0.9" y="0.9" width="28.2" height="36.4" rx="3.2" fill="#eee"/>` +
        stroke("M3 3L7 7M7 3L3 7", RED, 5, 9, 2, 1.6);
    }
    const svg = open + body + "</svg>";
    cache.set(name, svg);
    return svg;
  }

  function tileLabel(name, lang) {
    if (!valid(name)) return name === "back" ? (lang === "en" ? "hidden tile" : "暗牌") : String(name);
    const r = Number(name[0]), s = name[1];
    if ((lang || current) === "en") {
      if (s === "z") return EN.z[r - 1];
      if (s === "f") return `${EN.f[r - 1]} (flower ${r})`;
      return `${r} ${EN.suit[s]}`;
    }
    if (s === "z") return ZH.z[r - 1];
    if (s === "f") return ZH.f[r - 1];
    return ZH.num[r - 1] + ZH.suit[s];
  }

  function tileEl(name, opts) {
    const o = opts || {};
    const el = document.createElement(o.tag || "span");
    el.className = "t " + (valid(name) ? name[1] : "x") + (o.extra ? " " + o.extra : "");
    el.dataset.tile = name;
    const label = tileLabel(name, o.lang);
    el.title = label;
    el.setAttribute("aria-label", label);
    if (el.tagName !== "BUTTON" && !o.tag) el.setAttribute("role", "img");
    el.innerHTML = tileSVG(name);
    return el;
  }

  let current = "zh";
  try { current = localStorage.getItem("rulekit.lang") === "en" ? "en" : "zh"; } catch (e) { /* private mode */ }

  window.RulekitTiles = {
    tileSVG, tileEl, tileLabel, valid,
    lang: () => current,
    setLang(l) {
      current = l === "en" ? "en" : "zh";
      try { localStorage.setItem("rulekit.lang", current); } catch (e) { /* private mode */ }
      return current;
    },
  };
})();
