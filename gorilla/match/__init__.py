"""Matches between players (AI specs, GTP engines, file agents), the GTP client, the referee and self-play."""
