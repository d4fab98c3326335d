#!/usr/bin/env python3
"""Counts the places in src/ that parse text into a typed value, outside the two parse edges that
own that job (src/kb/, the knowledge base's loader, and src/cli/, the command-line parser): issue
33's measure of values that cross stage boundaries typed. Each figure is the number of lines the
command beside it prints (docs/ARCHITECTURE.md, "Typed values", has the table before and after).

  tools/parse_sites.py SRC            the figures and every site
  tools/parse_sites.py --check SRC    fails when a figure is above its limit below

A site that stays reads a foreign text (a tool's output, a file of the package, /proc, the user's
flag) or is the type's own parser; a new one is either such an edge or a value to type instead.
When a figure falls, lower its limit here so it cannot grow back.
"""
import os
import re
import sys

# name -> (the git grep command it mirrors, the line pattern, the limit)
FIGURES = {
    "CudaArch::parse": (
        "git grep -n 'CudaArch::parse' -- src | grep -v '^src/kb/\\|^src/cli/' | wc -l",
        re.compile(r"CudaArch::parse"), 11),
    "ver(": (
        "git grep -n -E '(^|[^A-Za-z0-9_])ver\\(' -- src | grep -v '^src/kb/\\|^src/cli/' | wc -l",
        re.compile(r"(^|[^A-Za-z0-9_])ver\("), 0),
    "Version::parse": (
        "git grep -n -E 'Version(Range)?::parse' -- src | grep -v '^src/kb/\\|^src/cli/' | wc -l",
        re.compile(r"Version(Range)?::parse"), 26),
    "atoi": (
        "git grep -n -w -E 'atoi|atol|stoi|stol|strtol' -- src | grep -v '^src/kb/\\|^src/cli/' | wc -l",
        re.compile(r"(?<![A-Za-z0-9_])(atoi|atol|stoi|stol|strtol)(?![A-Za-z0-9_])"), 19),
}
EDGES = ("kb", "cli")  # the directories under src/ whose job is parsing


def sites(src):
    """{figure: [(path, line number, text)]} over every file under src/ but the edges, as git grep sees them."""
    found = {name: [] for name in FIGURES}
    for root, dirs, files in os.walk(src):
        dirs.sort()
        if os.path.samefile(root, src):
            dirs[:] = [d for d in dirs if d not in EDGES]
        for f in sorted(files):
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                data = fh.read()
            if b"\0" in data:
                continue  # git grep skips binary files too
            for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
                for name, (_, pattern, _) in FIGURES.items():
                    if pattern.search(line):
                        found[name].append((os.path.relpath(path, os.path.dirname(src)), n, line.strip()))
    return found


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print("usage: parse_sites.py [--check] SRC", file=sys.stderr)
        return 2
    found = sites(os.path.abspath(args[0]))
    over = []
    for name, (command, _, limit) in FIGURES.items():
        n = len(found[name])
        print(f"{name}: {n} (limit {limit})   {command}")
        if not check or n > limit:
            for path, line, text in found[name]:
                print(f"  {path}:{line}: {text[:140]}")
        if n > limit:
            over.append(f"{name}: {n} sites, the limit is {limit}")
        elif check and n < limit:
            print(f"  {name} fell to {n}: lower its limit in tools/parse_sites.py to {n}")
    if over:
        print("\nmore parse sites than allowed (" + "; ".join(over) + "): parse the value once where it "
              "enters and pass it typed, or, for a new parse edge (a foreign file, a tool's output), say "
              "why in a comment on that line and raise the limit in tools/parse_sites.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
