#!/usr/bin/env python3
"""Per-phase timeline of one build command (issue 19 item 4: where the time goes).

Usage: bench/speed/timeline.py [--logs DIR] [--json FILE] -- COMMAND...
Runs COMMAND, stamps each line it prints (stdout and stderr together) with the seconds since its
start, and, with --logs, each new line of the files under DIR/runs/*/logs/ as they grow (a
torchsmith build's step logs, where pip's own output goes). Lines are put into phases by what pip,
setuptools and torchsmith print; a phase lasts from its first line to the next phase's first line.
Prints the phases with their seconds; --json writes them with the stamped lines.
Python 3.6+, standard library only (it runs on the GPU host's Python without network).
"""
import glob
import json
import os
import re
import subprocess
import sys
import threading
import time

# (phase, pattern): the first line matching starts the phase. Order: the most specific first.
PHASES = [
    ("torchsmith: plan", re.compile(r"^torchsmith: (planning|building a copy|reusing)")),
    ("metadata (egg_info / prepare_metadata)", re.compile(r"running egg_info|Preparing metadata|prepare_metadata_for_build_wheel")),
    ("bdist_wheel: build_py", re.compile(r"running build_py|running build$")),
    ("bdist_wheel: build_ext (compile + link)", re.compile(r"running build_ext")),
    ("bdist_wheel: install into the bdist dir", re.compile(r"installing to build/bdist|running install$|running install_lib")),
    ("bdist_wheel: zip", re.compile(r"creating '.*\.whl' and adding|adding '.*' to it|creating build/bdist.*/wheel/.*dist-info")),
    ("pip: after the wheel (hash, copy)", re.compile(r"Created wheel for|Building wheel for .* finished")),
    ("torchsmith: package", re.compile(r"^torchsmith: \[\d+/\d+\] (package|repair)")),
    ("torchsmith: verify", re.compile(r"^torchsmith: \[\d+/\d+\] verify")),
    ("torchsmith: build step (pip starts)", re.compile(r"^torchsmith: \[\d+/\d+\] build")),
    ("torchsmith: report", re.compile(r"^torchsmith: (built|wrote|report|done)|run.json")),
]


def classify(line):
    for name, pat in PHASES:
        if pat.search(line):
            return name
    return None


def main(argv):
    logs, jout = None, None
    while argv and argv[0] != "--":
        if argv[0] == "--logs" and len(argv) > 1:
            logs, argv = argv[1], argv[2:]
        elif argv[0] == "--json" and len(argv) > 1:
            jout, argv = argv[1], argv[2:]
        else:
            sys.stderr.write(__doc__)
            return 2
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    cmd = argv[1:]
    lines = []  # (t, source, text)
    lock = threading.Lock()
    t0 = time.monotonic()

    def stamp(src, text):
        with lock:
            lines.append((time.monotonic() - t0, src, text.rstrip("\n")))

    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, errors="replace")
    done = threading.Event()
    offsets = {}

    def tail():
        while True:
            last = done.is_set()
            for f in sorted(glob.glob(os.path.join(logs, "runs", "*", "logs", "*.log"))):
                try:
                    with open(f, errors="replace") as h:
                        h.seek(offsets.get(f, 0))
                        chunk = h.read()
                        # only whole lines; the rest is read next time
                        cut = chunk.rfind("\n") + 1 if not last else len(chunk)
                        offsets[f] = offsets.get(f, 0) + len(chunk[:cut].encode("utf-8", "replace"))
                    for l in chunk[:cut].splitlines():
                        stamp(os.path.basename(f), l)
                except OSError:
                    pass
            if last:
                return
            time.sleep(0.05)

    tailer = threading.Thread(target=tail) if logs else None
    if tailer:
        tailer.start()
    for l in p.stdout:
        stamp("out", l)
    rc = p.wait()
    total = time.monotonic() - t0
    done.set()
    if tailer:
        tailer.join()
    lines.sort(key=lambda x: x[0])
    phases = []  # [name, start]
    for t, src, text in lines:
        name = classify(text)
        if name and (not phases or phases[-1][0] != name) and name not in [p_[0] for p_ in phases]:
            phases.append([name, t])
    if not phases or phases[0][1] > 0.05:
        phases.insert(0, ["start (until the first phase line)", 0.0])
    rows = []
    for i, (name, start) in enumerate(phases):
        end = phases[i + 1][1] if i + 1 < len(phases) else total
        rows.append({"phase": name, "start": round(start, 2), "seconds": round(end - start, 2)})
    if rc != 0:
        for t, src, text in [x for x in lines if x[1] == "out"][-15:]:
            sys.stderr.write("%7.2f %s\n" % (t, text))
    print("%-45s %8s %8s" % ("phase", "start s", "seconds"))
    for r in rows:
        print("%-45s %8.2f %8.2f" % (r["phase"], r["start"], r["seconds"]))
    print("%-45s %8s %8.2f  (exit %d)" % ("total", "", total, rc))
    if jout:
        with open(jout, "w") as h:
            json.dump({"command": cmd, "exit": rc, "total": total, "phases": rows,
                       "lines": [{"t": round(t, 3), "src": s, "text": x} for t, s, x in lines]}, h, indent=1)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
