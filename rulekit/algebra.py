"""The fan algebra: which pattern values add, which multiply, and named overrides.

All numbers come from the ruleset; this module only knows the shape of the formula
`(Σ add, or the base when none holds) × Π multiply`, with combinations replacing a part.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations as subsets
from typing import Iterable


from rulekit.scoring.route import EXACT_BOUND_PATTERNS   # upper_bound's subsets, then loose_bound


def num(x: float) -> int | float:
    """Fan values print as integers when they are whole."""
    return int(x) if float(x).is_integer() else x


@dataclass(frozen=True, slots=True)
class Term:
    id: str
    name: str
    value: int | float
    role: str           # base, add, multiply, combination


@dataclass(frozen=True, slots=True)
class Breakdown:
    fan: int | float
    terms: tuple[Term, ...]
    text: str           # e.g. "(捉5 3 + 龍 4) × 素 2 = 14"

    @property
    def patterns(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.terms if t.role != "combination")


@dataclass(frozen=True, slots=True)
class Combination:
    name: str
    patterns: frozenset[str]
    value: float


@dataclass(frozen=True, slots=True)
class Algebra:
    base: tuple[str, float] | None
    add: tuple[tuple[str, float], ...]
    multiply: tuple[tuple[str, float], ...]
    combinations: tuple[Combination, ...] = ()
    names: dict[str, str] = field(default_factory=dict)

    @property
    def ids(self) -> frozenset[str]:
        ids = {i for i, _ in self.add} | {i for i, _ in self.multiply}
        if self.base:
            ids.add(self.base[0])
        for c in self.combinations:
            ids |= c.patterns
        return frozenset(ids)

    def fan(self, held: frozenset[str]) -> Breakdown:
        """The hand fan of a set of patterns that hold, with its itemised steps."""
        combo = next((c for c in self.combinations if c.patterns <= held), None)
        used = combo.patterns if combo else frozenset()
        adds = [(i, v) for i, v in self.add if i in held and i not in used]
        mults = [(i, v) for i, v in self.multiply if i in held and i not in used]
        terms: list[Term] = []
        parts: list[str] = []
        core = 0.0
        if combo:
            core += combo.value
            terms.append(Term("+".join(sorted(combo.patterns)), combo.name, num(combo.value),
                              "combination"))
            for i in sorted(combo.patterns):
                terms.append(Term(i, self.names.get(i, i), 0, "in_combination"))
            parts.append(f"{combo.name} {num(combo.value)}")
        for i, v in adds:
            core += v
            terms.append(Term(i, self.names.get(i, i), num(v), "add"))
            parts.append(f"{self.names.get(i, i)} {num(v)}")
        if not parts and self.base is not None and self.base[0] in held:
            i, v = self.base
            core = v
            terms.append(Term(i, self.names.get(i, i), num(v), "base"))
            parts.append(f"{self.names.get(i, i)} {num(v)}")
        if not parts:
            return Breakdown(0, (), "0")
        text = " + ".join(parts)
        if len(parts) > 1 and mults:
            text = f"({text})"
        total = core
        for i, v in mults:
            total *= v
            terms.append(Term(i, self.names.get(i, i), num(v), "multiply"))
            text += f" × {self.names.get(i, i)} {num(v)}"
        return Breakdown(num(total), tuple(terms), f"{text} = {num(total)}")

    def value(self, held: frozenset[str]) -> float:
        """`float(self.fan(held).fan)`, the same sums and products in the same order,
        without the itemised steps and their text (the bounds read only the number)."""
        combo = next((c for c in self.combinations if c.patterns <= held), None)
        used = combo.patterns if combo else frozenset()
        core = 0.0
        parts = False
        if combo:
            core += combo.value
            parts = True
        for i, v in self.add:
            if i in held and i not in used:
                core += v
                parts = True
        if not parts and self.base is not None and self.base[0] in held:
            core = self.base[1]
            parts = True
        if not parts:
            return 0.0
        total = core
        for i, v in self.multiply:
            if i in held and i not in used:
                total *= v
        return float(num(total))

    def upper_bound(self, fixed: frozenset[str], free: Iterable[str],
                    exclusive: frozenset[frozenset[str]] = frozenset()) -> float:
        """The best fan any arrangement could reach, given the patterns already known.

        `exclusive` lists pairs of patterns that never hold together; leaving them out makes
        the bound reachable, so the scorer can stop as soon as one reading reaches it.
        """
        free = [p for p in free if p in self.ids]
        if len(free) > EXACT_BOUND_PATTERNS:
            return self.loose_bound(fixed | frozenset(free))
        best = 0.0
        for k in range(len(free) + 1):
            for extra in subsets(free, k):
                if exclusive and any(frozenset(pair) in exclusive
                                     for pair in subsets(extra, 2)):
                    continue
                best = max(best, float(self.fan(fixed | frozenset(extra)).fan))
        return best

    def loose_bound(self, held: frozenset[str]) -> float:
        """A bound on |fan| of any subset of `held`, in time linear in the ruleset: used when
        the exact bound would try 2**n subsets (a ruleset with many valued patterns)."""
        core = sum(abs(v) for i, v in self.add if i in held)
        core += max((abs(c.value) for c in self.combinations if c.patterns <= held), default=0.0)
        if self.base is not None and self.base[0] in held:
            core += abs(self.base[1])
        for i, v in self.multiply:
            if i in held:
                core *= max(1.0, abs(v))
        return core
