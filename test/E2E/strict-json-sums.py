#!/usr/bin/env python3
"""Parses remat-run --json files strictly and prints each output's sum.

A strict parser refuses the bare words inf, nan and their Python spellings
Infinity and NaN: only standard JSON is accepted. Sums are printed as
float() reads them.

Usage: strict-json-sums.py FILE...
"""

import json
import os
import sys


def refuse(word):
    raise ValueError("not JSON: " + word)


def main(paths):
    for path in paths:
        with open(path) as f:
            report = json.loads(f.read(), parse_constant=refuse)
        sums = []
        for output in report["outputs"]:
            value = output["sum"]
            if isinstance(value, str) and value not in ("inf", "-inf", "nan"):
                raise ValueError("unexpected sum %r" % value)
            sums.append(repr(float(value)))
        print("%s: %s" % (os.path.basename(path), " ".join(sums)))


if __name__ == "__main__":
    main(sys.argv[1:])
