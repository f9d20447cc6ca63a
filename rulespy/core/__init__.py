"""The rules each step applies: one module per file of ``core/``."""
