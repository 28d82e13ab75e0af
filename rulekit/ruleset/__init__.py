"""Rulesets: YAML files (with `extends`) → validated data → a compiled `Ruleset`."""
