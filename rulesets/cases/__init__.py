# Marks this directory as the package rulekit.data.rulesets.cases, so `pip install .` ships the
# built-in rulesets and importlib.resources finds them (pyproject.toml maps it).
