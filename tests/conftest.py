"""Test-suite configuration shared by every module."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # registered so that warnings-as-errors does not reject the mark; slow tests still run by default
    config.addinivalue_line("markers", "slow: takes minutes (installs packages); deselect with -m 'not slow'")
