"""A bot that plays the first legal action until its AFTER-th request, then misbehaves as
MODE says (tests/test_bots.py, tests/test_match.py):

    python bad_bot.py MODE [AFTER]

MODE: good, crash, hang, slow, garbage, illegal, huge, close, chatter, flood, deep, child;
record (plays well, and writes every line it reads to the file named by a third argument).
"""
import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
if mode == "slow":            # starts slowly (1 s), then hangs after AFTER answers
    time.sleep(1)
    mode = "hang"
if mode == "crash" and after == 0:
    sys.stderr.write("bad_bot: crashing at start\n")
    sys.exit(3)
asked = 0
seen = open(sys.argv[3], "w", encoding="utf-8") if mode == "record" else None
for line in sys.stdin:
    if seen is not None:
        seen.write(line)
        seen.flush()
    msg = json.loads(line)
    if msg["type"] != "request":
        continue
    asked += 1
    out = json.dumps(msg["legal"][0])
    if asked > after:
        if mode == "crash":
            sys.stderr.write("bad_bot: crashing mid-hand\n")
            sys.exit(4)
        if mode == "hang":
            time.sleep(60)
        if mode == "garbage":
            out = "I think I will discard the red dragon"
        if mode == "illegal":
            out = json.dumps({"action": "discard", "tile": "9x"})
        if mode == "huge":
            out = "[" * 10 + "x" * 2_000_000
        if mode == "deep":
            out = "[" * 50 + "]" * 50
        if mode == "close":
            sys.stdout.close()
            os.close(1)
            time.sleep(60)
        if mode == "chatter":
            sys.stdout.write("thinking...\n" * 3)
        if mode == "flood":
            sys.stdout.write('{"action": "pass"}\n' * 100000)
        if mode == "child":      # a child that outlives it, holding stdout: killed with it
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            time.sleep(60)
    sys.stdout.write(out + "\n")
    sys.stdout.flush()
