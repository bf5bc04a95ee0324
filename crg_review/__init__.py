"""crg-review: what a change can break — callers, tests and related code from a code graph."""

__version__ = "0.1.0"
