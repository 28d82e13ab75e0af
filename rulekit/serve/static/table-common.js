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
  // -- labels in the language the calculator's toggle chose (tiles.js, "rulekit.lang") ------
  t(key, ...args) {
    const v = TK.L[window.RulekitTiles.lang()][key];
    return typeof v === "function" ? v(...args) : v === undefined ? key : v;
  },
  // the static labels (data-i18n) and the header button; `redraw` runs after a toggle
  langButton(redraw) {
    const apply = () => {
      const zh = window.RulekitTiles.lang() === "zh";
      document.documentElement.lang = zh ? "zh-Hant" : "en";
      for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = TK.t(e.dataset.i18n);
      document.getElementById("lang").textContent = TK.t("langButton");
    };
    document.getElementById("lang").addEventListener("click", () => {
      const T = window.RulekitTiles;
      T.setLang(T.lang() === "zh" ? "en" : "zh");
      apply();
      redraw();
    });
    apply();
  },
  L: {
    zh: {
      langButton: "EN", table: "牌桌", replayTitle: "重播", calculator: "算番", newTable: "開桌",
      newTableH: "開桌", ruleset: "規則", overlayHelp: "貼上規則 (YAML，extends: 一種規則)", seats: "座位",
      hands: "盤數", think: "每步思考 (秒)", create: "開桌", linksH: "入座連結",
      linksHelp: "每個連結就是那一座的鑰匙：只發給坐那一座的人。", overlayChoice: "貼上規則…",
      wall: "牆", result: "結果", session: "本局", cSeat: "座", cHand: "這盤", cTotal: "總計",
      back: "牌桌", export: "記錄 (JSON)",
      win: "和", pung: "碰", kong: "杠", pass: "過", sit: "坐莊", pull: "拉莊", ready: "天聽",
      exposed: "明杠", concealed: "暗杠", golden: "金杠", added: "加杠",
      kinds: { human: "人", greedy: "電腦 greedy", value: "電腦 value", random: "電腦 random", remote: "遠端電腦" },
      winds: "東南西北", you: "你", seat: (s) => `${s} 座`, tilesHeld: (n) => `${n} 張`,
      handNo: (i, n) => `第 ${i}/${n} 盤`, finished: "完", waiting: (ss) => `等 ${ss} 座入座`,
      yourMove: "輪到你", toMove: (ss) => `等 ${ss} 座`, tapTwice: "點兩下打牌", lost: "斷線，重新連接…",
      noSeat: "這個連結打不開這桌的座位。", botSeat: (s, k) => `${s} 座：${k}`, remoteSeat: (s) => `${s} 座：遠端電腦`,
      sitAt: (s) => `入座 ${s} 座`, draw: (h) => `第 ${h} 盤：荒莊`, wins: (h, who, how) => `第 ${h} 盤：${who}和 · ${how}`,
      by: { self_draw: "自摸", kong_draw: "杠開", discard: "點炮", last_draw: "海底撈" },
      replay: "重播這盤", finishedHands: (l) => `已完：第 ${l} 盤`,
      start: "砌牆，還沒發牌。", did: { deal: "發牌", indicator: "翻混", draw: "摸牌", replacement: "補牌",
        discard: "打", pung: "碰", kong: "杠", concealed_kong: "暗杠", golden_kong: "金杠", added_kong: "加杠",
        win: "和", draw_game: "荒莊", chan: "鏟" },
      replayHead: (h, rs) => `第 ${h} 盤 · ${rs}`, noWinner: "荒莊：沒有人和。",
      won: (s, by, fan, pay) => `${s} 和 (${by})，${fan} 番。輸贏：${pay}`,
    },
    en: {
      langButton: "中文", table: "table", replayTitle: "replay", calculator: "calculator", newTable: "new table",
      newTableH: "New table", ruleset: "Ruleset", overlayHelp: "Overlay (YAML, extends: a ruleset)", seats: "Seats",
      hands: "Hands", think: "Think time (s)", create: "Create table", linksH: "Seat links",
      linksHelp: "Each link is that seat's key: send it only to the player of that seat.", overlayChoice: "Pasted overlay…",
      wall: "Wall", result: "Result", session: "Session", cSeat: "Seat", cHand: "This hand", cTotal: "Total",
      back: "table", export: "record (JSON)",
      win: "Win", pung: "Pung", kong: "Kong", pass: "Pass", sit: "Sit", pull: "Pull", ready: "Ready",
      exposed: "exposed", concealed: "concealed", golden: "golden", added: "added",
      kinds: { human: "person", greedy: "bot greedy", value: "bot value", random: "bot random", remote: "remote bot" },
      winds: ["East", "South", "West", "North"], you: "You", seat: (s) => `Seat ${s}`, tilesHeld: (n) => `${n} tiles`,
      handNo: (i, n) => `Hand ${i}/${n}`, finished: "finished", waiting: (ss) => `Waiting for seat ${ss} to join`,
      yourMove: "Your move", toMove: (ss) => `Seat ${ss} to move`, tapTwice: "Tap a tile twice to discard", lost: "Connection lost; reconnecting…",
      noSeat: "This link opens no seat of this table.", botSeat: (s, k) => `Seat ${s}: ${k}`, remoteSeat: (s) => `Seat ${s}: remote bot`,
      sitAt: (s) => `Sit at seat ${s}`, draw: (h) => `Hand ${h}: drawn game`, wins: (h, who, how, me) => `Hand ${h}: ${who} ${me ? "win" : "wins"} · ${how}`,
      by: { self_draw: "self-drawn", kong_draw: "on a kong", discard: "on a discard", last_draw: "last tile" },
      replay: "Replay this hand", finishedHands: (l) => `Finished hands: ${l}`,
      start: "The wall is built; nothing dealt yet.", did: { deal: "is dealt", indicator: "turns the indicator", draw: "draws",
        replacement: "draws a replacement", discard: "discards", pung: "pungs", kong: "kongs", concealed_kong: "declares a concealed kong",
        golden_kong: "declares a golden kong", added_kong: "adds to a pung", win: "wins", draw_game: "— the wall is drawn out", chan: "— chan" },
      replayHead: (h, rs) => `Hand ${h} · ${rs}`, noWinner: "Drawn game: no winner.",
      won: (s, by, fan, pay) => `${s} won (${by}), ${fan} fan. Payments: ${pay}`,
    },
  },
};
