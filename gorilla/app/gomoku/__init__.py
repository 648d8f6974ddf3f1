"""Gomoku in the app: its kind and the parts only Gomoku has (Swap2, the threat map, renju's
forbidden points, its record)."""
