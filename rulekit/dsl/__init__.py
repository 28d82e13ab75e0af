"""The pattern DSL: text → AST (`parse`) → checked closures over facts (`compile_patterns`)."""
from rulekit.dsl.compile import CompiledPattern, PatternSource, compile_patterns
from rulekit.dsl.parse import parse

__all__ = ["CompiledPattern", "PatternSource", "compile_patterns", "parse"]
