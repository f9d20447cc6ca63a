"""Snap Fire: commands/command_snap_fire.md."""


def test_snap_fire_shoots_back_at_minus_1(play) -> None:  # type: ignore[no-untyped-def]
    result = play("shoot", [1, 1, 1, 5], "response: {command: snap_fire, mark: s1}\n")
    reply = result.attacks[1]
    assert (reply.unit, reply.command, reply.initiative) == ("foes", "snap_fire", False)
    assert [(r.roll.natural, r.roll.modified) for r in reply.targets[0].locks] == [(5, 4)]
    assert result.removed == {"s1": "end_of_firefight"}
