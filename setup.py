"""The one compiled part that is not numba: zerosum.games._native (see its source).

It is optional: where no C compiler is found the build goes on without it and the games
call numba's entry points instead (the same kernels, ~0.3 us slower a call). Everything
else about the package is declared in pyproject.toml.
"""

import numpy
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "zerosum.games._native",
            ["zerosum/games/_native.c"],
            include_dirs=[numpy.get_include()],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
