"""Order of play: `timing/` of the rules tree."""
