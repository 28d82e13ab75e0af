"""Seat a stdin/stdout bot (docs/bots.md) at a live table of `rulekit serve`: every message of
the seat's WebSocket goes to the bot as a line, each line the bot answers goes back.

    python examples/table_bridge.py 'ws://127.0.0.1:8000/v1/tables/ID/ws?seat=1&token=T' \\
        python examples/bot_greedyish.py

The same bot plays `rulekit match` and a table unchanged. Needs `websockets` (in the serve
extra). Ends when the table closes the socket (4400 after a fault: an answer not in `legal`,
as `rulekit match` ends such a bot; the fallback then plays the seat) or the bot exits.
"""
import json
import subprocess
import sys

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: table_bridge.py WS_URL BOT_COMMAND...\n")
        return 2
    bot = subprocess.Popen(argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        with connect(argv[0]) as ws:
            for text in ws:
                message = json.loads(text)
                if message.get("type") not in ("start", "event", "request", "end"):
                    continue                       # a table's `error`: its `fault` ends us
                bot.stdin.write(text + "\n")
                bot.stdin.flush()
                if message["type"] == "request":
                    answer = bot.stdout.readline()
                    if not answer:
                        return 1                   # the bot is gone: its seat falls back
                    ws.send(answer.strip())
    except ConnectionClosed:
        pass
    finally:
        bot.stdin.close()
        bot.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
