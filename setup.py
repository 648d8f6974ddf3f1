"""The package list, found rather than written out: every package under gorilla/, plus the
top-level assets/ folder installed as gorilla.assets (pyproject.toml maps it and lists its files).
Everything else about the build is in pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["gorilla", "gorilla.*"]), "gorilla.assets"])
