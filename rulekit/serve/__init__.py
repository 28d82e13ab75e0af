"""`rulekit serve`: the library behind an HTTP JSON API and a web calculator (extra `serve`).

Nothing here holds a rule: every request goes through `rulekit.score`, `settle` and `waits`
with a ruleset named from the built-ins or the served directory, or pasted inline.
"""
from rulekit.serve.limits import ServeLimits

__all__ = ["ServeLimits"]
