"""Shoot: commands/command_shoot.md."""


def test_shoot_is_a_standard_attack_with_every_weapon_and_no_modifier(play) -> None:  # type: ignore[no-untyped-def]
    result = play("shoot", [4, 4, 4])
    locks = [r.roll for r in result.attacks[0].targets[0].locks]
    assert [(r.weapon, r.modified, r.success) for r in locks] == [
        ("rifle", 4, True),
        ("pistol", 4, True),
        ("cannon", 4, True),
    ]
