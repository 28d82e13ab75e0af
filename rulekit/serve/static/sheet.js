// The served rule sheet (rulekit/serve/sheet.py): its tiles, written as labelled text so that
// the printed file stands alone, are drawn as the calculator's pictures (tiles.js).
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const T = window.RulekitTiles;
  if (!T) return;
  for (const el of document.querySelectorAll("span.t[title]")) {
    const name = el.getAttribute("title");
    if (!T.valid(name)) continue;
    const label = el.textContent;           // 五萬: the sheet's own name for it
    el.innerHTML = T.tileSVG(name);
    el.classList.add("pic");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
    el.title = label;
  }
});
