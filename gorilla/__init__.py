"""Gorilla: a Go-playing program."""

__version__ = "0.1.0"
