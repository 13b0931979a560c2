# A @pl.program class without @pl.function methods has nothing to compile; say so.
# expect: @pl.program class 'Empty' has no @pl.function methods
import pypto.language as pl

@pl.program
class Empty:
    scale = 2
