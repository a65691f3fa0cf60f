"""Runs one remat-opt command several ways and checks that every run writes
the same bytes: the output IR, the JSON report and the SVG timeline, stdout
and stderr, and the exit code.

  compare-runs.py WORKDIR REMAT_OPT INPUT PIPELINE-OPTIONS...

Each PIPELINE-OPTIONS string is one configuration of --remat-pipeline; the
report and timeline paths are added here. Every configuration runs with the
default thread pool twice and with --mlir-disable-threading once. The
report's `solve_ms` (a wall-clock time) is the one field that is not
compared.
"""

import os
import re
import subprocess
import sys

RUNS = [("threads-1", []), ("serial", ["--mlir-disable-threading"]),
        ("threads-2", [])]


def run(workdir, remat_opt, source, options, name, extra):
    out = os.path.join(workdir, name)
    os.makedirs(out, exist_ok=True)
    # Same file names in every run, so that paths echoed in messages match.
    report, timeline, ir = "report.json", "timeline.svg", "out.mlir"
    pipeline = "--remat-pipeline=%s report=%s timeline=%s" % (options, report,
                                                              timeline)
    proc = subprocess.run([remat_opt, source, pipeline, "-o", ir] + extra,
                          cwd=out, capture_output=True)
    files = {"exit code": str(proc.returncode).encode(),
             "stdout": proc.stdout, "stderr": proc.stderr}
    for path in (ir, report, timeline):
        full = os.path.join(out, path)
        files[path] = open(full, "rb").read() if os.path.exists(full) else None
    if files[report] is not None:
        files[report] = re.sub(rb'"solve_ms": *[0-9.e+-]+', b'"solve_ms": _',
                               files[report])
    return files


def main():
    workdir, remat_opt, source = map(os.path.abspath, sys.argv[1:4])
    failures = 0
    for index, options in enumerate(sys.argv[4:]):
        results = [(name, run(workdir, remat_opt, source, options,
                              "%d-%s" % (index, name), extra))
                   for name, extra in RUNS]
        first_name, first = results[0]
        if first["exit code"] != b"0" or first["out.mlir"] is None:
            print("FAIL [%s]: the first run failed:\n%s" %
                  (options, first["stderr"].decode(errors="replace")))
            failures += 1
            continue
        for name, files in results[1:]:
            for what, data in files.items():
                if data != first[what]:
                    print("FAIL [%s]: %s differs between the %s and the %s "
                          "run" % (options, what, first_name, name))
                    failures += 1
        print("checked [%s]: %d runs, %d bytes of IR, report and timeline" %
              (options, len(RUNS), sum(len(first[f] or b"")
                                       for f in ("out.mlir", "report.json",
                                                 "timeline.svg"))))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
