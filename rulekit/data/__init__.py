"""Package data: the built-in rulesets and the DSL grammar (see pyproject.toml)."""
