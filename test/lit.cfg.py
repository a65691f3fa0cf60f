# -*- Python -*-
# Lit configuration for the Remat IR, tool and end-to-end tests.

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


if has_nvidia_gpu():
    config.available_features.add("cuda")

if os.path.isfile(os.path.join(config.remat_install_dir, "lib", "cmake",
                               "remat", "RematConfig.cmake")):
    config.available_features.add("remat-installed")
if os.path.isdir(os.path.join(config.shared_models_dir, "onnx")):
    config.available_features.add("shared-models")
