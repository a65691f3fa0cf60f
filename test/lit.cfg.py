# -*- Python -*-
# Lit configuration for the Remat IR, tool and end-to-end tests.

import atexit
import ctypes
import os
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "Remat"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.remat_obj_root, "test")
# Unit tests are a suite of their own (Unit/lit.cfg.py); Inputs are data.
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.remat_tools_dir, append_path=True)

config.substitutions.append(("%remat_src", config.remat_src_root))
config.substitutions.append(("%remat_install", config.remat_install_dir))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cc", config.c_compiler))

llvm_config.add_tool_substitutions(["remat-opt", "remat-run", "remat-translate",
                                    "remat-bench"],
                                   [config.remat_tools_dir])
config.substitutions.append(("%python", sys.executable))

# ONNX test models are text protos, encoded at test time with protoc and the
# onnx.proto of libonnx-dev.
config.substitutions.append(
    ("%encode-onnx",
     "protoc --encode=onnx.ModelProto -I/usr/include onnx/onnx.proto"))


def has_nvidia_gpu():
    """An NVIDIA GPU the GPU tests can run on: nvidia-smi lists one and the
    driver library loads."""
    try:
        listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                                timeout=30)
        ctypes.CDLL("libcuda.so.1")
    except (OSError, subprocess.SubprocessError):
        return False
    return listed.returncode == 0 and b"GPU" in listed.stdout


# A sanitizer build (scripts/test --sanitize): programs the tests build
# against the instrumented libraries (the embedding example) link the
# sanitizer runtimes too; CMake reads LDFLAGS when it configures them.
sanitizer_flags = [f for f in getattr(config, "cxx_flags", "").split()
                   if f.startswith("-fsanitize=")]
if sanitizer_flags:
    config.environment["LDFLAGS"] = " ".join(sanitizer_flags)

# Each optional feature, and why it is missing: tests that REQUIRE a missing
# one are UNSUPPORTED, and the run says which and why rather than skipping
# them silently.
missing_features = {}

if has_nvidia_gpu():
    config.available_features.add("cuda")
else:
    missing_features["cuda"] = (
        "no NVIDIA GPU (nvidia-smi lists none or libcuda.so.1 does not "
        "load): the GPU tests are UNSUPPORTED")

if os.path.isfile(os.path.join(config.remat_install_dir, "lib", "cmake",
                               "remat", "RematConfig.cmake")):
    config.available_features.add("remat-installed")
else:
    missing_features["remat-installed"] = (
        "Remat is not installed in %s (scripts/build.sh installs it): the "
        "tests of the installed package are UNSUPPORTED"
        % config.remat_install_dir)

shared_onnx_dir = os.path.join(config.shared_models_dir, "onnx")
if os.path.isdir(shared_onnx_dir):
    config.available_features.add("shared-models")
else:
    missing_features["shared-models"] = (
        "no ONNX models in %s: the tests on the shared models are "
        "UNSUPPORTED" % shared_onnx_dir)

for feature, reason in sorted(missing_features.items()):
    lit_config.note("feature '%s' missing: %s" % (feature, reason))


def recap_missing_features():
    """Repeats the notes under lit's summary, where a reader looks."""
    for feature, reason in sorted(missing_features.items()):
        sys.stderr.write("note: feature '%s' missing: %s\n" % (feature, reason))


# Registered in lit's main process, which loads this file; it runs after
# lit has printed its summary.
if missing_features:
    atexit.register(recap_missing_features)

# CI must run the model tests: there a missing model directory fails the run
# (after the tests, with this message) instead of passing with them skipped.
if os.environ.get("CI") == "true" and "shared-models" in missing_features:
    lit_config.error(
        "CI=true but the shared models are missing (%s): check out the "
        "models next to the source tree, or unset CI to skip the model tests"
        % shared_onnx_dir)
