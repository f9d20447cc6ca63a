"""The engine's invariants, checked on one resolved attack from the outside.

Everything here is recomputed from the scenario and the structured result, never read from the engine's
own bookkeeping: the wounds each success inflicts (core/damage.md), which models are in play in each
allocation round, which models are valid for each weapon (``is_valid``, the one engine function used,
because validity is geometry that other tests cover), the tiers, and the order of the dice.
Each check raises ``AssertionError`` with a sentence saying which invariant broke and where.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from rulespy.core.allocation import is_valid
from rulespy.core.ranged_weapons import Weapon
from rulespy.dice import ScriptedDice, SeededDice
from rulespy.errors import InvalidInput
from rulespy.sequences.records import Hit
from rulespy.sequences.resolution import Resolution, TargetResult, resolve
from rulespy.state import Battlefield, Command, Model, ModelStatus, Scenario


def inflicted(weapon: Weapon, model: Model, critical: bool) -> int:
    """A Critical Lock inflicts damage + 1 ignoring armour (core/critical_damage.md), any other success
    max(damage - armour, 0) (core/damage.md#armour)."""
    return weapon.damage + 1 if critical else max(weapon.damage - model.armour, 0)


def tier(model: Model) -> int:
    if model.status & {ModelStatus.IMMOBILISED, ModelStatus.ABANDONED}:
        return 2
    return 1 if ModelStatus.PINNED in model.status else 0


def check_all(scenario: Scenario, result: Resolution, faces: tuple[int, ...]) -> None:
    """Every invariant of this module on one resolution made with ``faces``."""
    check_dice_order(result, faces)
    check_replay(scenario, result, faces)
    check_successes_allocated(result)
    check_damage(scenario.battlefield, result)
    check_rounds(scenario, result)
    check_casualties(scenario.battlefield, result)
    check_pins(scenario, result)


def check_dice_order(result: Resolution, faces: tuple[int, ...]) -> None:
    """Every die rolled shows up exactly once in the account, in Dice Order
    (sequences/shooting_sequence.md#dice-order)."""
    shown: list[int] = []
    for attack in result.attacks:
        for target in attack.targets:
            if target.leadership is not None:
                shown.extend(target.leadership.dice)
        for target in attack.targets:
            shown.extend(r.roll.natural for r in target.locks)
    assert tuple(shown) == faces, f"the account shows the dice {shown}, but {list(faces)} were rolled"


def check_replay(scenario: Scenario, result: Resolution, faces: tuple[int, ...]) -> None:
    """The rolled faces as a scripted list give the same account and are used up exactly; one die more
    is 'left over', one die fewer 'runs out'; the same seed gives the same account."""
    scripted = ScriptedDice(faces)
    again = resolve(scenario, scripted)
    assert scripted.used == len(faces), f"{scripted.used} of {len(faces)} scripted dice used"
    scripted.finish()
    assert again.to_json() == result.to_json(), "replaying the same dice gave another account"
    try:
        resolve(scenario, ScriptedDice((*faces, 1)))
    except InvalidInput as error:
        assert "left over" in error.message, error.message
    else:
        raise AssertionError("one scripted die too many was not refused as left over")
    if faces:
        try:
            resolve(scenario, ScriptedDice(faces[:-1]))
        except InvalidInput as error:
            assert "ran out" in error.message, error.message
        else:
            raise AssertionError("one scripted die too few was not refused as running out")
    seed = sum(faces) * 7919 + len(faces)
    first = resolve(scenario, SeededDice(seed)).to_json()
    assert resolve(scenario, SeededDice(seed)).to_json() == first, f"seed {seed} gave two accounts"
    own = resolve(replace(scenario, dice=None, seed=seed)).to_json()
    assert own == first, f"the scenario's own seed {seed} gave another account than SeededDice({seed})"


def check_successes_allocated(result: Resolution) -> None:
    """Each success is allocated (or lost) exactly once, criticals first, with its own weapon."""
    for attack in result.attacks:
        for target in attack.targets:
            where = f"{attack.unit} -> {target.unit}"
            hits = target.allocation
            assert len(hits) == target.successes, (
                f"{where}: {len(hits)} allocations, {target.successes} successes"
            )
            crit_flags = [h.critical for h in hits]
            assert crit_flags == sorted(crit_flags, reverse=True), (
                f"{where}: a normal success before a critical"
            )
            for critical in (True, False):
                locks = Counter(
                    r.roll.weapon for r in target.locks if r.roll.success and r.roll.critical == critical
                )
                given = Counter(h.weapon for h in hits if h.critical == critical)
                assert locks == given, f"{where}: successes {dict(locks)} but allocations {dict(given)}"


def check_damage(bf: Battlefield, result: Resolution) -> None:
    """Target Limit and the wounds lost: per success at most what it inflicts after armour, per model the
    smaller of the total and the wounds it had, no model wounded without a success, and no more models
    wounded at a target than it took successes."""
    hits_on: dict[str, list[Hit]] = {}
    for attack in result.attacks:
        for target in attack.targets:
            wounded = set()
            for hit in target.allocation:
                if hit.model is None:
                    assert hit.wounds == 0, f"a lost success took {hit.wounds} wounds"
                    continue
                model = bf.model(hit.model)
                assert bf.unit_of(hit.model).id == target.unit, f"{hit.model} is not in {target.unit}"
                most = inflicted(bf.weapon(hit.weapon), model, hit.critical)
                assert 0 <= hit.wounds <= most, (
                    f"{hit.model} lost {hit.wounds} from one success inflicting {most}"
                )
                hits_on.setdefault(hit.model, []).append(hit)
                if hit.wounds:
                    wounded.add(hit.model)
            assert len(wounded) <= target.successes, (
                f"{target.unit}: {len(wounded)} models wounded by {target.successes} successes (spill-over)"
            )
    for model in bf.models():
        hits = hits_on.get(model.id, [])
        total = sum(inflicted(bf.weapon(h.weapon), model, h.critical) for h in hits)
        expected = min(total, model.wounds)
        lost = model.wounds - result.wounds(model.id)
        assert lost == expected, (
            f"{model.id} had {model.wounds} wounds and was inflicted {total}, "
            f"so it loses {expected}, but it lost {lost}"
        )
        assert sum(h.wounds for h in hits) == lost, f"{model.id}: the allocations add up to another loss"
        left = model.wounds
        for hit in hits:  # each success takes what is left of the model, in allocation order
            take = min(inflicted(bf.weapon(hit.weapon), model, hit.critical), left)
            assert hit.wounds == take, f"{model.id}: a success took {hit.wounds}, expected {take}"
            left -= take


def check_rounds(scenario: Scenario, result: Resolution) -> None:
    """Per target and round: allocation only to valid models in play, lost only when none is valid, the
    first success to the valid Marked Model, a second success of a weapon only once every valid model of
    that tier has one of it, and a higher tier only once every valid lower-tier model has a success."""
    bf = scenario.battlefield
    for a, attack in enumerate(result.attacks):
        decl = scenario.attack.targets if a == 0 else None
        for t, target in enumerate(attack.targets):
            mark = decl[t].mark if decl is not None else _response_mark(scenario)
            crits = [h for h in target.allocation if h.critical]
            normals = [h for h in target.allocation if not h.critical]
            units_models = bf.unit(target.unit).models
            gone = _killed_by(bf, crits)
            _check_round(bf, target, crits, list(units_models), mark, "critical round")
            in_play = [m for m in units_models if m.id not in gone]
            _check_round(bf, target, normals, in_play, mark, "normal round")


def _response_mark(scenario: Scenario) -> str:
    assert scenario.response is not None
    return scenario.response.mark


def _killed_by(bf: Battlefield, hits: list[Hit]) -> set[str]:
    total: Counter[str] = Counter()
    for hit in hits:
        if hit.model is not None:
            total[hit.model] += inflicted(bf.weapon(hit.weapon), bf.model(hit.model), True)
    return {m for m, w in total.items() if w >= bf.model(m).wounds}


def _check_round(
    bf: Battlefield, target: TargetResult, hits: list[Hit], in_play: list[Model], mark: str, name: str
) -> None:
    firers: dict[str, list[Model]] = {}
    for rolled in target.locks:
        shooter = bf.model(rolled.roll.model)
        if shooter not in firers.setdefault(rolled.roll.weapon, []):
            firers[rolled.roll.weapon].append(shooter)
    valid = {w: [m for m in in_play if is_valid(m, bf.weapon(w), fs, bf.terrain)] for w, fs in firers.items()}
    per_weapon: Counter[tuple[str, str]] = Counter()
    per_model: Counter[str] = Counter()
    for index, hit in enumerate(hits):
        where = f"{target.unit}, {name}, success {index + 1} ({hit.weapon})"
        ok = valid.get(hit.weapon, [])
        if hit.model is None:
            assert not ok, f"{where}: lost although {[m.id for m in ok]} are valid"
            continue
        chosen = next((m for m in ok if m.id == hit.model), None)
        assert chosen is not None, f"{where}: went to {hit.model}, not valid (valid: {[m.id for m in ok]})"
        if index == 0 and any(m.id == mark for m in ok):
            assert hit.model == mark, f"{where}: the valid Marked Model {mark} did not get the first success"
        exempt = index == 0 and hit.model == mark
        if not exempt:
            if per_weapon[(hit.model, hit.weapon)] >= 1:
                bare = [m.id for m in ok if tier(m) == tier(chosen) and not per_weapon[(m.id, hit.weapon)]]
                assert not bare, (
                    f"{where}: a second {hit.weapon} success to {hit.model} while {bare} have none"
                )
            lower = [m.id for m in ok if tier(m) < tier(chosen) and not per_model[m.id]]
            assert not lower, f"{where}: {hit.model} (tier {tier(chosen)}) hit while {lower} have no success"
        per_weapon[(hit.model, hit.weapon)] += 1
        per_model[hit.model] += 1


def check_casualties(bf: Battlefield, result: Resolution) -> None:
    """Casualties are distinct models at 0 wounds, never more than the models present, each removed at the
    right time: Critical Damage casualties at once, the rest at the end of the attack or firefight."""
    ids = [c.model for c in result.casualties]
    assert len(ids) == len(set(ids)), f"a model is a casualty twice: {ids}"
    present = {m.id for m in bf.models()}
    assert len(ids) <= len(present) and set(ids) <= present, f"casualties {ids} beyond the models present"
    for unit in bf.units:
        mine = [i for i in ids if unit.has(i)]
        assert len(mine) <= len(unit.models), (
            f"{unit.id}: {len(mine)} casualties of {len(unit.models)} models"
        )
    at_zero = {m for m in present if result.wounds(m) == 0}
    assert set(ids) == at_zero, f"casualties {sorted(ids)} but models at 0 wounds {sorted(at_zero)}"
    crit_dead = set()
    for attack in result.attacks:
        for target in attack.targets:
            crit_dead |= _killed_by(bf, [h for h in target.allocation if h.critical])
    later = "end_of_firefight" if len(result.attacks) == 2 else "end_of_attack"
    for c in result.casualties:
        expected = "immediate" if c.model in crit_dead else later
        assert c.removed == expected, f"{c.model} removed {c.removed}, expected {expected}"


def check_pins(scenario: Scenario, result: Resolution) -> None:
    """A survivor allocated a success of a Pinning weapon, or of Covering Fire, ends Pinned; no other model
    gains Pinned."""
    bf = scenario.battlefield
    pinned = set()
    for a, attack in enumerate(result.attacks):
        covering = a == 0 and scenario.attack.command is Command.COVERING_FIRE
        for target in attack.targets:
            for hit in target.allocation:
                if hit.model is not None and (covering or bf.weapon(hit.weapon).pinning):
                    pinned.add(hit.model)
    for model in bf.models():
        expected = ModelStatus.PINNED in model.status or (model.id in pinned and result.wounds(model.id) > 0)
        got = "pinned" in result.status(model.id)
        assert got == expected, f"{model.id}: pinned is {got}, expected {expected}"
