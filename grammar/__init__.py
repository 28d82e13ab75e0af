# Marks this directory as the package rulekit.data.grammar, so `pip install .` ships the
# DSL grammar and importlib.resources finds it (pyproject.toml maps it).
