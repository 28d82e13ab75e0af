// "What does this change?" for a pasted overlay: POST /v1/impact, shown under the overlay
// box (rulekit/serve/impact.py). Its own file so that app.js stays the calculator's; it
// only adds to #overlay-box and reads #overlay and #ruleset. Text goes in as textContent.
"use strict";
(function () {
  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function signed(x) {
    const t = Number(x).toFixed(3);
    return Number(t) > 0 ? "+" + t : (Number(t) === 0 ? "0.000" : t);
  }
  function show(out, got) {
    out.replaceChildren();
    out.append(el("p", got.reading.charAt(0).toUpperCase() + got.reading.slice(1) + "."));
    const rules = el("ul");
    for (const r of got.rules_differ) {
      rules.append(el("li", `${r.name} (${r.key}): ${JSON.stringify(r.first)} → ` +
                            `${JSON.stringify(r.other)}; fired in ${r.fired_hands} of ` +
                            `${got.bounded.hands_played} hands`));
    }
    if (!got.rules_differ.length) rules.append(el("li", "no rule differs"));
    out.append(el("h3", "Rules that differ 規則差異"), rules);
    for (const w of got.warnings) out.append(el("p", "warning: " + w, "warn"));
    const c = got.corpus;
    out.append(el("p", `Corpus: ${c.changed} of ${c.documents} random hands score ` +
                       `differently (${c.reading}).`));
    const sim = got.simulation;
    const money = sim.money_difference.map((m, s) => `seat ${s} ${signed(m.value)}`);
    out.append(el("p", `Play (${sim.hands} hands, greedy players): money changed in ` +
                       `${sim.money_changed.count} hands; per hand ${money.join(", ")}.`));
    if (got.html) {
      const a = el("a", "Download the full report (HTML)");
      a.href = URL.createObjectURL(new Blob([got.html], {type: "text/html"}));
      a.download = "impact.html";
      out.append(a);
    }
  }
  function setup() {
    const box = document.getElementById("overlay-box");
    const text = document.getElementById("overlay");
    if (!box || !text) return;
    const button = el("button", "這改變了甚麼? What does this change?");
    button.type = "button";
    button.id = "impact-run";
    const out = el("div", undefined, "impact");
    out.id = "impact";
    out.setAttribute("role", "status");
    box.append(button, out);
    button.addEventListener("click", async function () {
      button.disabled = true;
      out.replaceChildren(el("p", "playing and scoring…", "muted"));
      try {
        const r = await fetch("/v1/impact", {
          method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({ruleset_yaml: text.value, hands: 64, documents: 300,
                                html: true})});
        const got = await r.json();
        if (!r.ok) out.replaceChildren(el("p", got.error ? got.error.message : r.statusText,
                                          "warn"));
        else show(out, got);
      } catch (e) {
        out.replaceChildren(el("p", "the server did not answer: " + e, "warn"));
      } finally {
        button.disabled = false;
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
