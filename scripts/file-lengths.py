#!/usr/bin/env python3
"""Fails when a source file of the project is over 700 lines (generated files and the third-party crates in vendor/,
kept as published, excepted): a file that long holds more than one idea, and is split by step or by subject
instead."""
import subprocess
import sys

LIMIT = 700
GENERATED = {"client/src/api/schema.d.ts"}
VENDORED = "vendor/"
SOURCES = ("*.rs", "*.ts", "*.tsx", "*.mjs", "*.js", "*.py")


def main():
    files = subprocess.run(["git", "ls-files", *SOURCES], capture_output=True, text=True, check=True).stdout.split()
    long = []
    for path in files:
        if path in GENERATED or path.startswith(VENDORED):
            continue
        with open(path, encoding="utf-8") as file:
            count = sum(1 for _ in file)
        if count > LIMIT:
            long.append((count, path))
    for count, path in sorted(long, reverse=True):
        print(f"{path}: {count} lines (at most {LIMIT})")
    if not long:
        print(f"no source file is over {LIMIT} lines")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main())
