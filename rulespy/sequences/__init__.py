"""Order of play: `sequences/` of the rules tree."""
