"""`pip install .`: builds the native module (winnow._native) with CMake and installs it with the
pure-Python package from python/winnow. The build needs what scripts/setup installs (the
Debian packages, DuckDB, ONNX Runtime). WINNOW_BUILD_DIR names the CMake build folder (default
build/pip; an existing `build` is reused as it is). Offline (no package index), use
`pip install --no-build-isolation .` so pip takes the installed setuptools."""
import glob
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(winnow VERSION ([0-9.]+)", f.read()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.path.abspath(os.environ.get("WINNOW_BUILD_DIR",
                                                   os.path.join(ROOT, "build", "pip")))
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                         "-DWINNOW_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}",
                         "-DBUILD_TESTING=OFF"]
            if shutil.which("ccache"):
                configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            subprocess.check_call(configure)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "winnow_native",
                               "-j", str(os.cpu_count() or 2)])
        built = glob.glob(os.path.join(build_dir, "python", "winnow", "_native*.so"))
        if not built:
            raise RuntimeError(f"CMake built no winnow module under {build_dir} (is pybind11 "
                               "installed? see the configure output)")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(built[0], target)
        # The image decoders are a module of their own, loaded from beside _native on the first
        # decode (media/image_pixels.cpp; CMake builds it with winnow_native's libraries).
        shutil.copy2(os.path.join(build_dir, "libwinnow_image_codecs.so"),
                     os.path.join(os.path.dirname(target), "libwinnow_image_codecs.so"))


setup(version=version(), ext_modules=[Extension("winnow._native", sources=[])],
      cmdclass={"build_ext": CMakeBuild})
