"""Gomoku (five in a row): its own rules core, threat tables, engine and the Gomocup protocol."""
