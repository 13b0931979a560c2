# Imports a constant one package up (`from ..config import ROWS as R0`) and defines its own.
from ..config import ROWS as R0
EXTRA = 16
