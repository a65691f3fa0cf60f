"""Writes a Markdown page of bench/results: a title, a line saying how and
where it was produced, and a table. Shared by the example benchmarks."""

import datetime
import os
import platform
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def machine_stamp():
    """Date, host and processor, for the line saying where a run was made."""
    return "%s, %s, %s" % (datetime.date.today().isoformat(),
                           platform.node() or "unknown host",
                           platform.processor() or platform.machine())


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def write_text(filename, text):
    """Writes `text` to bench/results/<filename> and echoes it to stdout."""
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", filename), "w") as f:
        f.write(text)
    sys.stdout.write(text)


def write_page(filename, title, preamble, header, rows):
    """Writes bench/results/<filename>: a title, a preamble and a table."""
    write_text(filename, "# %s\n\n%s\n\n%s\n" % (
        title, preamble, markdown_table(header, rows)))
