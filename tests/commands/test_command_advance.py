"""Advance: commands/command_advance.md."""


def test_advance_shoots_at_minus_1_and_heavy_weapons_do_not_fire(play) -> None:  # type: ignore[no-untyped-def]
    result = play("advance", [4, 5])
    locks = [r.roll for r in result.attacks[0].targets[0].locks]
    assert [(r.weapon, r.modified, r.success) for r in locks] == [("rifle", 3, False), ("pistol", 4, True)]
    assert any(e.rule == "commands/command_advance.md#advance" for e in result.trace)
