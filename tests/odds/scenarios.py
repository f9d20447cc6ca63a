"""Scenarios for the odds tests, written as a player would set them up (YAML, as the contract shows)."""

from __future__ import annotations

# Three riflemen, one weapon profile, one-wound targets in the open: each die succeeds on 4+ (1/2), and
# every success kills one model until none is left, so the casualties are binomial, capped at 3.
BINOMIAL = """
weapons:
  rifle: {range: 24, dice: 2, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], weapons: [rifle]}
      - {id: s2, at: [0, 2], weapons: [rifle]}
      - {id: s3, at: [0, 4], weapons: [rifle]}
  - id: cultists
    side: red
    models:
      - {id: c1, at: [10, 0]}
      - {id: c2, at: [10, 2]}
      - {id: c3, at: [10, 4]}
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: cultists, mark: c1}
"""

# The leader's rifle fires at alpha; the other two must pass a Leadership Check on ld 7 to fire at beta.
SPLIT = """
weapons:
  rifle: {range: 24, dice: 2, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, ld: 7, weapons: [rifle]}
      - {id: s2, at: [0, 2], weapons: [rifle]}
      - {id: s3, at: [0, 4], weapons: [rifle]}
  - id: alpha
    side: red
    models: [{id: a1, at: [10, 0]}, {id: a2, at: [10, 2]}]
  - id: beta
    side: red
    models: [{id: b1, at: [10, 6]}, {id: b2, at: [10, 8]}]
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: alpha, mark: a1, models: [s1]}
    - {unit: beta, mark: b1}
"""

# The marked model stands in heavy cover: -2 to every die, and a natural 6 still locks critically.
COVER = """
weapons:
  rifle: {range: 24, dice: 3, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], weapons: [rifle]}
      - {id: s2, at: [0, 2], weapons: [rifle]}
  - id: guards
    side: red
    models:
      - {id: g1, at: [12, 0], cover: heavy, wounds: 2}
      - {id: g2, at: [12, 2], cover: light}
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: guards, mark: g1}
"""

# Armour 1 against damage 2: one wound a normal success, three from a Critical Lock.
ARMOUR = """
weapons:
  gun: {range: 24, dice: 3, lock: 3, damage: 2}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], weapons: [gun]}
      - {id: s2, at: [0, 2], weapons: [gun]}
  - id: knights
    side: red
    models:
      - {id: k1, at: [12, 0], wounds: 2, armour: 1}
      - {id: k2, at: [12, 2], wounds: 2, armour: 1}
      - {id: k3, at: [12, 4], wounds: 3, armour: 1}
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: knights, mark: k1}
"""

# Mixed profiles: a precise carbine, a pinning gun and a critical-5 lance at a mixed unit.
MIXED = """
weapons:
  carbine: {range: 18, dice: 2, lock: 5, damage: 1, traits: [precise]}
  stubber: {range: 24, dice: 3, lock: 4, damage: 1, traits: [pinning]}
  lance: {range: 36, dice: 1, lock: 3, damage: 3, traits: [critical 5]}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], weapons: [carbine, lance]}
      - {id: s2, at: [0, 2], weapons: [stubber]}
  - id: mixed
    side: red
    models:
      - {id: m1, at: [12, 0], wounds: 3, armour: 1}
      - {id: m2, at: [12, 2]}
      - {id: m3, at: [12, 4], wounds: 2}
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: mixed, mark: m2}
"""

# The targeted unit answers with Snap Fire: a firefight, casualties on both sides.
SNAP_FIRE = """
weapons:
  rifle: {range: 24, dice: 2, lock: 4, damage: 1}
  pistol: {range: 12, dice: 1, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], weapons: [rifle]}
      - {id: s2, at: [0, 2], wounds: 2, weapons: [rifle]}
  - id: gang
    side: red
    models:
      - {id: g1, at: [10, 0], weapons: [pistol]}
      - {id: g2, at: [10, 2], weapons: [pistol]}
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: gang, mark: g1}
response: {command: snap_fire, mark: s1}
"""

VARIED = {"split": SPLIT, "cover": COVER, "armour": ARMOUR, "mixed": MIXED, "snap_fire": SNAP_FIRE}

# Rifles, then a pistol, then rifles again, one rifleman Pinned (-1): runs that may and may not be joined.
INTERLEAVED = """
weapons:
  rifle: {range: 24, dice: 2, lock: 4, damage: 1}
  pistol: {range: 12, dice: 1, lock: 3, damage: 2}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], weapons: [rifle]}
      - {id: s2, at: [0, 2], weapons: [rifle], status: [pinned]}
      - {id: s3, at: [0, 4], weapons: [rifle]}
      - {id: s4, at: [0, 6], weapons: [pistol, rifle]}
      - {id: s5, at: [0, 8], weapons: [rifle]}
  - id: foes
    side: red
    models:
      - {id: f1, at: [10, 0], wounds: 2}
      - {id: f2, at: [10, 2]}
      - {id: f3, at: [10, 4], wounds: 2, armour: 1}
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: foes, mark: f2}
"""
