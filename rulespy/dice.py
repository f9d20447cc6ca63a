"""Dice sources. The rules never roll: a driver asks a source for faces.

Rule: sequences/shooting_sequence.md#dice-order
"""

from __future__ import annotations

from collections.abc import Sequence

from rulespy.errors import InvalidInput
from rulespy.wording import count


class ScriptedDice:
    """Faces given in advance, consumed in Dice Order. Running out or leaving dice over is an error.

    ``line`` is where the list stands in the scenario file, for the error message.
    """

    def __init__(self, faces: Sequence[int], line: int | None = None) -> None:
        self._faces = tuple(faces)
        self._next = 0
        self._line = line
        for face in self._faces:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
                raise InvalidInput(f"scripted die {face!r} is not a number from 1 to 6", line)

    def roll(self, count: int) -> tuple[int, ...]:
        if self._next + count > len(self._faces):
            raise InvalidInput(
                f"the scripted dice ran out: the attack needs more than the {len(self._faces)} dice given",
                self._line,
            )
        faces = self._faces[self._next : self._next + count]
        self._next += count
        return faces

    def finish(self) -> None:
        """Raise if dice are left over once the attack is resolved."""
        left = len(self._faces) - self._next
        if left:
            raise InvalidInput(
                f"{count(left, 'scripted die', 'scripted dice')} left over: the attack used {self._next} of "
                f"{len(self._faces)}",
                self._line,
            )

    @property
    def used(self) -> int:
        return self._next


class SeededDice:
    """Reproducible random faces for a seed and engine version (its own generator, never the module's)."""

    def __init__(self, seed: int) -> None:
        import random  # only seeded runs need it: kept out of the command line's start-up

        self._random = random.Random(seed)
        self.used = 0

    def roll(self, count: int) -> tuple[int, ...]:
        self.used += count
        randint = self._random.randint
        return tuple([randint(1, 6) for _ in range(count)])

    def finish(self) -> None:
        """Seeded dice never run out and are never left over."""
