"""The build's one addition to pyproject.toml: the modules that ground and encode rules, compiled
with Cython from the same Python source when a C compiler is at hand (a third less CPU per puzzle,
BENCHMARKS.md, eighteenth session). Without a compiler, or if compiling fails, the package is the
pure Python one and works the same. `puzzledsl/native.py` loads a compiled module only while its
source is the one it was built from, so an edited module runs as written.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# the stages a puzzle's compile and encoding spend their time in (profiled; BENCHMARKS.md)
COMPILED = ["closures", "model", "values", "joins", "ground", "ground_aggregates", "ground_common",
            "ground_builtins", "ground_declare", "ground_regions", "region_sizes", "runs", "encode/cnf",
            "encode/linear", "data", "solve", "backends/sat", "graphs", "evaluate", "evaluate_grids"]
MANIFEST = "_native.txt"  # beside the compiled modules: `MODULE DIGEST` lines, as puzzledsl/native.py reads them


def _source(module: str) -> Path:
    return Path("puzzledsl", *module.split("/")).with_suffix(".py")


class OptionalBuild(build_ext):
    """Cython, then the C compiler, each allowed to fail: the pure modules stay in use then. A
    manifest records each compiled module's source digest for `puzzledsl/native.py`."""

    def run(self) -> None:
        try:
            from Cython.Build import cythonize
            translated = cythonize(self.extensions, quiet=True, build_dir="build/cython", nthreads=os.cpu_count() or 1,
                                   compiler_directives={"language_level": 3, "binding": True,
                                                        "annotation_typing": False})
            c_files = {ext.name: ext.sources for ext in translated}
            for ext in self.extensions:  # setuptools' own Extension objects, with the C files as sources
                ext.sources = c_files[ext.name]
            self.parallel = self.parallel or os.cpu_count() or 1  # the C compiler on every core
            self.compiled: set[str] = set()
            super().run()
        except Exception as err:  # noqa: BLE001 - any failure leaves the pure package, which is complete
            print(f"puzzledsl: not compiling ({type(err).__name__}: {err}); the pure Python modules are used")
            self.extensions = []
            return
        built = {}
        for module in COMPILED:  # by this build; `-`: it could not compile it (an older copy is not taken)
            name = "puzzledsl." + module.replace("/", ".")
            data = _source(module).read_bytes()
            built[name] = f"{zlib.crc32(data):08x}-{len(data)}" if name in self.compiled else "-"
        manifest = Path(self.get_ext_fullpath("puzzledsl.x")).parent / MANIFEST
        manifest.write_text("".join(f"{name} {d}\n" for name, d in sorted(built.items())), encoding="utf-8")

    def build_extensions(self) -> None:
        super().build_extensions()
        # only what compiled is copied beside the sources (an editable install) or packaged
        self.extensions = [ext for ext in self.extensions if ext.name in self.compiled]

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type == "unix":  # -O1: as fast as -O2 here, in half the build time;
            ext.extra_compile_args = ["-O1", "-g0", "-w"]  # -g0: 0.7 MB a module, not 3.5 MB
        try:
            super().build_extension(ext)
            self.compiled.add(ext.name)
        except Exception as err:  # noqa: BLE001 - that module stays pure
            print(f"puzzledsl: {ext.name} not compiled ({type(err).__name__}: {str(err)[:200]}); its Python "
                  "source is used")


setup(
    ext_modules=[Extension("puzzledsl." + m.replace("/", "."), [str(_source(m))]) for m in COMPILED],
    cmdclass={"build_ext": OptionalBuild},
)
