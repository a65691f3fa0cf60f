#!/usr/bin/env python3
"""Runs remat-run many times with every thread's exit delayed, and counts
the runs whose JIT left work in flight at teardown.

Usage:
  scripts/jit-teardown-soak.py [--runs=N] [--bin=DIR] [--step=FILE]
                               [-- remat-run options...]

remat-run compiles a step's parts on several threads (ORC's task
dispatcher). ORC's session end removes the JIT's libraries before it stops
those threads, so a task still in flight at exit finds its resource
tracker defunct ("JIT session error: Resource tracker ... became defunct"
on stderr), or touches freed state and crashes. remat-run waits for the
dispatcher before the session ends (tools/remat-run/Jit.cpp). The window is
narrow; a small preloaded library that delays each thread's exit by up to
20 ms, so that teardown overlaps the compile threads' last moments, widens
it: on the shared SqueezeNet's training step (batch 1, 3x32x32, planned
at 0.5, -O 0 --arena=false), 8 runs in 120 failed before the wait and none
in 130 after it; on examples/transformer.mlir, 1 in 40 before.

The step defaults to examples/transformer.mlir planned at 0.7. Needs a C
compiler (cc) for the preloaded library. Prints one line per failed run
and a summary:
  jit-teardown-soak: N runs, F with a JIT error or a non-zero exit
Exits 1 when any run failed. Only the Python standard library is used.
"""

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Wraps every thread's start routine and sleeps 0-20 ms after it returns,
# before the thread's own teardown (its thread-local destructors) runs.
DELAY_EXIT = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
struct start { void *(*routine)(void *); void *argument; };
static void *delayed(void *p) {
  struct start s = *(struct start *)p;
  free(p);
  void *result = s.routine(s.argument);
  unsigned seed = (unsigned)(size_t)&result ^ (unsigned)time(NULL);
  usleep(rand_r(&seed) % 20000);
  return result;
}
int pthread_create(pthread_t *thread, const pthread_attr_t *attributes,
                   void *(*routine)(void *), void *argument) {
  static int (*real)(pthread_t *, const pthread_attr_t *,
                     void *(*)(void *), void *);
  if (!real)
    real = dlsym(RTLD_NEXT, "pthread_create");
  struct start *s = malloc(sizeof *s);
  s->routine = routine;
  s->argument = argument;
  return real(thread, attributes, delayed, s);
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--step", help="a planned step (default: "
                        "examples/transformer.mlir planned at 0.7)")
    parser.add_argument("extra", nargs="*", help="more remat-run options")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="remat-jit-teardown-")
    library = os.path.join(work, "delay-exit.so")
    source = os.path.join(work, "delay-exit.c")
    with open(source, "w") as f:
        f.write(DELAY_EXIT)
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", library, source,
                    "-ldl"], check=True)
    step = args.step
    if not step:
        step = os.path.join(work, "step.mlir")
        subprocess.run([os.path.join(args.bin, "remat-opt"),
                        os.path.join(ROOT, "examples", "transformer.mlir"),
                        "--remat-pipeline=budget=0.7 best-effort", "-o", step],
                       check=True, stderr=subprocess.DEVNULL)
    command = [os.path.join(args.bin, "remat-run"), step, "--json"] + \
        args.extra
    environment = dict(os.environ, LD_PRELOAD=library)
    failed = 0
    for run in range(args.runs):
        done = subprocess.run(command, env=environment, capture_output=True,
                              text=True)
        if done.returncode != 0 or "JIT session error" in done.stderr:
            failed += 1
            first = (done.stderr.strip().splitlines() or [""])[0]
            print("run %d: exit %d: %s" % (run, done.returncode, first))
    print("jit-teardown-soak: %d runs, %d with a JIT error or a non-zero "
          "exit" % (args.runs, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
