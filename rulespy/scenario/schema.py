"""The keys, types and ranges of a scenario file: the definition of the scenario format.

``Fields`` reads one mapping of the located tree: it refuses unknown keys (with a did-you-mean),
missing required keys and values of the wrong type or out of range, always with the line of the
offending key or value. Booleans are never numbers; whole numbers are accepted where a decimal is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rulespy.errors import InvalidInput
from rulespy.scenario.yamlnodes import Map, Node, Scalar, Seq, kind

TOP_KEYS = ("weapons", "units", "terrain", "attack", "response", "dice", "seed", "description", "expect")
WEAPON_KEYS = ("range", "dice", "lock", "damage", "traits")
UNIT_KEYS = ("id", "side", "traits", "status", "models")
MODEL_KEYS = (
    "id", "at", "base", "ld", "wounds", "armour", "leader", "weapons", "status", "facing", "arc", "cover",
    "holds_fire",
)  # fmt: skip
TERRAIN_KEYS = ("kind", "polygon")
ATTACK_KEYS = ("unit", "command", "targets")
TARGET_KEYS = ("unit", "mark", "models", "weapons")
RESPONSE_KEYS = ("command", "mark")

MAX_COORDINATE = 100_000.0
"""Positions, ranges and bases beyond this many inches are refused as out of range."""
MAX_DICE = 1_000
"""The most Target Lock dice one weapon may roll."""
MAX_WOUNDS = 1_000_000
"""The largest `wounds` and `damage` accepted."""


def suggest(word: str, options: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest option, or nothing."""
    import difflib  # only a refusal needs it: a well-formed scenario never pays for the import

    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def expect_map(node: Node, what: str, path: str) -> Map:
    if not isinstance(node, Map):
        raise InvalidInput(f"{what} must be a mapping of keys to values, not {kind(node)}", node.line, path)
    return node


def expect_seq(node: Node, what: str, path: str) -> Seq:
    if not isinstance(node, Seq):
        raise InvalidInput(f"{what} must be a list, not {kind(node)}", node.line, path)
    return node


def text_of(node: Node, what: str, path: str) -> str:
    if not isinstance(node, Scalar) or not isinstance(node.value, str):
        raise InvalidInput(f"{what} must be text, not {kind(node)}", node.line, path)
    if not node.value.strip():
        raise InvalidInput(f"{what} must not be empty", node.line, path)
    return node.value


def integer_of(node: Node, what: str, path: str, low: int, high: int) -> int:
    if not isinstance(node, Scalar) or isinstance(node.value, bool) or not isinstance(node.value, int):
        raise InvalidInput(f"{what} must be a whole number, not {kind(node)}", node.line, path)
    _in_range(node.value, what, node.line, path, low, high)
    return node.value


def number_of(node: Node, what: str, path: str, low: float, high: float, low_open: bool = False) -> float:
    value = node.value if isinstance(node, Scalar) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{what} must be a number, not {kind(node)}", node.line, path)
    if low_open and value <= low:
        raise InvalidInput(f"{what} must be more than {_written(low)}, not {value!r}", node.line, path)
    _in_range(value, what, node.line, path, low, high)
    return float(value)


def _in_range(value: float, what: str, line: int, path: str, low: float, high: float) -> None:
    if low <= value <= high:
        return
    if high <= 360:
        bound = f"from {_written(low)} to {_written(high)}"
    else:
        bound = f"at least {_written(low)}" if value < low else f"at most {_written(high)}"
    raise InvalidInput(f"{what} must be {bound}, not {value!r}", line, path)


def _written(bound: float) -> str:
    """A bound as a player writes it: ``1000000``, ``2.5``; never ``1e+06``."""
    return str(int(bound)) if float(bound).is_integer() else f"{bound:g}"


def choice_of(node: Node, what: str, path: str, choices: Sequence[str]) -> str:
    value = text_of(node, what, path)
    if value not in choices:
        allowed = ", ".join(choices)
        raise InvalidInput(
            f"{what} must be one of: {allowed}; not {value!r}{suggest(value, choices)}", node.line, path
        )
    return value


def point_of(node: Node, what: str, path: str) -> tuple[float, float]:
    seq = expect_seq(node, f"{what} (written [x, y])", path)
    if len(seq.items) != 2:
        raise InvalidInput(f"{what} must be two numbers [x, y], not {len(seq.items)} values", seq.line, path)
    x, y = (number_of(item, what, path, -MAX_COORDINATE, MAX_COORDINATE) for item in seq.items)
    return (x, y)


class Fields:
    """One mapping of the scenario, read key by key with its lines."""

    def __init__(
        self,
        node: Node,
        what: str,
        path: str,
        allowed: Sequence[str],
        required: Sequence[str] = (),
    ) -> None:
        self.map = expect_map(node, what, path)
        self.what = what
        self.path = path
        for key, entry in self.map.entries.items():
            if key not in allowed:
                raise InvalidInput(
                    f"unknown key {key!r} in {what}{suggest(key, allowed)}; "
                    f"allowed keys: {', '.join(allowed)}",
                    entry.key_line,
                    path,
                )
        for key in required:
            if key not in self.map.entries:
                raise InvalidInput(f"{what} has no {key!r}: it is required", self.map.line, path)

    def has(self, key: str) -> bool:
        return key in self.map.entries

    def node(self, key: str) -> Node:
        return self.map.entries[key].value

    def key_line(self, key: str) -> int:
        return self.map.entries[key].key_line

    def label(self, key: str) -> str:
        return f"{key!r} of {self.what}"

    def text(self, key: str) -> str:
        return text_of(self.node(key), self.label(key), self.path)

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        if not self.has(key):
            return default
        return integer_of(self.node(key), self.label(key), self.path, low, high)

    def number(self, key: str, default: float, low: float, high: float, low_open: bool = False) -> float:
        if not self.has(key):
            return default
        return number_of(self.node(key), self.label(key), self.path, low, high, low_open)

    def boolean(self, key: str, default: bool) -> bool:
        if not self.has(key):
            return default
        node = self.node(key)
        if not isinstance(node, Scalar) or not isinstance(node.value, bool):
            raise InvalidInput(
                f"{self.label(key)} must be true or false, not {kind(node)}", node.line, self.path
            )
        return node.value

    def choice(self, key: str, choices: Sequence[str]) -> str:
        return choice_of(self.node(key), self.label(key), self.path, choices)

    def seq(self, key: str) -> Seq:
        return expect_seq(self.node(key), self.label(key), self.path)

    def names(self, key: str, unique_what: str) -> list[tuple[str, int]]:
        """A list of names with their lines; a name given twice is refused."""
        if not self.has(key):
            return []
        seen: dict[str, int] = {}
        for item in self.seq(key).items:
            name = text_of(item, f"an entry of {self.label(key)}", self.path)
            if name in seen:
                raise InvalidInput(
                    f"{unique_what} {name!r} is listed twice in {self.label(key)} "
                    f"(first on line {seen[name]})",
                    item.line,
                    self.path,
                )
            seen[name] = item.line
        return list(seen.items())
