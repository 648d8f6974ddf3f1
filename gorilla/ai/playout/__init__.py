"""Playouts and their move policies: light, heavy, and GNU Go pattern-database playouts."""
