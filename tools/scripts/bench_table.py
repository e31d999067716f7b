#!/usr/bin/env python3
"""Prints two Google Benchmark CSV reports (median rows) side by side: miniaten's and PyTorch's,
time per iteration, bandwidth (bytes read + written per second) and the ratio PyTorch / miniaten
(above 1: miniaten faster). Copies are also given as a fraction of the cudaMemcpy baseline row.

    bench_table.py miniaten.csv pytorch.csv
"""
import csv
import sys


def medians(path):
    rows = {}
    try:
        with open(path) as f:
            lines = [l for l in f if l.startswith('"') or l.startswith("name")]
    except OSError:
        return rows
    for r in csv.DictReader(lines):
        name = r["name"]
        if not name.endswith("_median"):
            continue
        name = name[: -len("_median")].split("/")[0]
        t = float(r["real_time"])
        unit = r["time_unit"]
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]
        bw = float(r["bytes_per_second"]) if r.get("bytes_per_second") else 0.0
        rows[name] = (t * scale, bw)
    return rows


def main():
    mine = medians(sys.argv[1])
    theirs = medians(sys.argv[2]) if len(sys.argv) > 2 else {}
    base = mine.get("BM_CudaMemcpy256MB", (0, 0))[1]
    print(f"{'benchmark (median)':34} {'miniaten':>11} {'PyTorch':>11} {'PT/mini':>8}"
          f" {'GB/s mini':>10} {'GB/s PT':>9} {'mini/memcpy':>11}")
    for name, (t, bw) in mine.items():
        tt, tbw = theirs.get(name, (0, 0))
        fmt = lambda s: (f"{s * 1e6:9.1f}us" if s >= 1e-6 else f"{s * 1e9:9.1f}ns") if s else "-"
        ratio = f"{tt / t:7.2f}x" if tt and t else "-"
        frac = f"{bw / base:10.2f}" if bw and base else "-"
        print(f"{name:34} {fmt(t):>11} {fmt(tt):>11} {ratio:>8} {bw / 1e9 if bw else 0:10.1f}"
              f" {tbw / 1e9 if tbw else 0:9.1f} {frac:>11}")


if __name__ == "__main__":
    main()
