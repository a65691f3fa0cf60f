# -*- Python -*-
# Runs every GoogleTest binary under build/unittests (names ending in
# "Tests"); each TEST is reported as one lit test.

import os

import lit.formats

config.name = "Remat-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.remat_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(config.llvm_build_mode, "Tests")
