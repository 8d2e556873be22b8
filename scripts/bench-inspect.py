#!/usr/bin/env python3
"""Whole-process timing of `playtrace inspect FILE` against the Python m3u8 package loading the same file
(`python -c 'import m3u8; m3u8.load(FILE)'`), in interleaved rounds so that both see the same machine load.

    bench-inspect.py PLAYTRACE PYTHON FILE [ROUNDS]

Each round runs the peer then Playtrace once; each figure is wall-clock time from process start to exit (start-up,
reading the file, parsing and, for Playtrace, the whole text report written to /dev/null). Prints the medians and
their ratio. A run that fails fails the script."""
import statistics
import subprocess
import sys
import time

playtrace, python, path = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5


def timed(command):
    began = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


peer_command = [python, "-c", "import sys, m3u8; assert m3u8.load(sys.argv[1]).segments", path]
ours_command = [playtrace, "inspect", path]
timed(peer_command)  # warm-up: the file in the page cache, both programs loaded once
timed(ours_command)
peer, ours = [], []
for _ in range(rounds):
    peer.append(timed(peer_command))
    ours.append(timed(ours_command))
peer_median, ours_median = statistics.median(peer), statistics.median(ours)
print(f"{ours_median:.3f} {peer_median:.3f} {peer_median / ours_median:.1f}")
