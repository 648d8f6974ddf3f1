"""The package list, found rather than written out: every package under gorilla/, plus the
top-level assets/ folder installed as gorilla.assets with its sub-folders (pyproject.toml maps
the folder and takes every file in it as package data). Everything else about the build is in
pyproject.toml; .ci/wheel_smoke.py checks that the wheel holds every module and asset."""

from setuptools import find_namespace_packages, find_packages, setup

# the asset folders are listed as packages too (they hold no module): setuptools then knows they
# are meant to be installed, as gorilla.assets' package data, and does not warn about them
ASSETS = [
    "gorilla.assets",
    *(f"gorilla.assets.{p}" for p in find_namespace_packages("assets", exclude=["*__pycache__*"])),
]

setup(packages=[*find_packages(include=["gorilla", "gorilla.*"]), *ASSETS])
