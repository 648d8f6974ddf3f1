"""Go in the app: its kind and the parts only Go has (the game tree, set-up mode, dead stones,
handicap stones, the net's analysis and teaching)."""
