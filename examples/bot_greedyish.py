"""A sample bot for `rulekit match` (protocol rulekit-bot/1, docs/bots.md); no rulekit import.

    rulekit match --seat "cmd:python examples/bot_greedyish.py" --seat greedy ...

Reads one JSON message per line from stdin; answers each `request` with one line, an element
of its `legal` list: a win when offered; otherwise the discard of the held tile with the
fewest neighbours (never a hun while another tile is left); a pung when it holds a pair of
the tile; else "pass". Exits at EOF.
"""
import json
import re
import sys
from collections import Counter


def tiles(text):
    """'123m55z' -> ['1m', '2m', '3m', '5z', '5z']"""
    return [d + suit for run, suit in re.findall(r"(\d+)([mpsz])", text or "") for d in run]


def neighbours(tile, held):
    n, suit = int(tile[0]), tile[1]
    if suit == "z":
        return 3 * (held[tile] - 1)
    return 3 * (held[tile] - 1) + sum(held[f"{n + d}{suit}"] for d in (-2, -1, 1, 2))


def choose(obs, legal):
    kinds = {a["action"] for a in legal}
    if "win" in kinds:
        return {"action": "win"}
    discards = [a for a in legal if a["action"] == "discard"]
    if discards:
        held = Counter(tiles(obs.get("hand")))
        hun = set(obs.get("hun") or [])
        plain = [a for a in discards if a["tile"] not in hun] or discards
        return min(plain, key=lambda a: (neighbours(a["tile"], held), a["tile"]))
    if {"action": "pung"} in legal:
        return {"action": "pung"}
    return {"action": "pass"} if {"action": "pass"} in legal else legal[0]


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "request":
            answer = choose(msg["observation"], msg["legal"])
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
