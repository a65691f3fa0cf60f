#!/usr/bin/env python3
"""Checks that planned steps compute what the unrematerialized one does.

Usage: same-outputs.py REFERENCE_RUN RUN...

Each RUN is remat-run's JSON for the same step under another plan; every
output must have the reference's shape, dtype and hash (bit-identical).
Prints one line per run; exits non-zero when any differs.
"""

import json
import sys


def outputs(path):
    with open(path) as f:
        return [(o["shape"], o["dtype"], o["hash"]) for o in json.load(f)["outputs"]]


def main(argv):
    reference = outputs(argv[1])
    failures = 0
    for path in argv[2:]:
        same = outputs(path) == reference
        failures += not same
        print("%s: %s" % (path.rsplit("/", 1)[-1],
                          "identical" if same else "DIFFERENT"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
