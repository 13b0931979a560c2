# A sibling module of tests/imports/pkg/prog.py: its constants are imported with `from .config import ...`.
ROWS = 64
COLS = 2 * 64
SCALE = 0.5
