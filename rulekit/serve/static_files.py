"""Where the pages rulekit serve shows live, and the one head they share: one answer for the
calculator's routes (app.py) and the tables' (tables/routes.py), so neither imports the other.

A page file (index.html, table.html, replay.html) starts with one line naming what its head
loads, `<!-- head: title="…" css="a.css b.css" js="x.js y.js" -->`, and holds the rest of the
page from `<body>` on; `page(name)` writes the head (doctype, charset, viewport, no referrer,
the icon, the title, each stylesheet and deferred script under /static/) once for all three.
"""
from __future__ import annotations

import re
from html import escape
from importlib import resources
from pathlib import Path

HEAD_LINE = re.compile(r'<!-- head: title="([^"<>]*)" css="([\w .-]*)" js="([\w .-]*)" -->\n')
HEAD = ('<!doctype html>\n<html lang="zh-Hant">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width,initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<link rel="icon" href="/favicon.ico" type="image/svg+xml">\n')
"""What every page's head has: the table pages' links carry a seat's token, so no page sends
its address on as a referrer."""


def static_dir() -> Path:
    """The pages' files, installed as package data or beside this module."""
    files = resources.files("rulekit.serve") / "static"
    return Path(str(files))


def page(name: str) -> str:
    """The page `name` as served: the shared head filled from its first line, then its body.
    Read on every request, as the files are (an edited page shows on reload)."""
    text = (static_dir() / name).read_text(encoding="utf-8")
    m = HEAD_LINE.match(text)
    if m is None:
        raise ValueError(f"static/{name} does not start with its <!-- head: ... --> line")
    title, css, js = m.groups()
    head = [HEAD, f"<title>rulekit · {escape(title, quote=False)}</title>\n"]
    head += [f'<link rel="stylesheet" href="/static/{c}">\n' for c in css.split()]
    head += [f'<script src="/static/{j}" defer></script>\n' for j in js.split()]
    return "".join(head) + "</head>\n" + text[m.end():]
