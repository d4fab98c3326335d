#!/usr/bin/env python3
"""Fetch an NVIDIA nvcc wheel from PyPI into a cache and unpack the parts a toolkit probe reads.

usage: toolkit_wheel.py CACHE_DIR PROJECT VERSION [EXTRA_PROJECT...]
EXTRA_PROJECTs (same VERSION) are unpacked into the same tree: nvidia-cuda-crt holds the 13.x
include/crt/host_config.h that the 13.x nvcc wheel lacks. Prints the unpacked toolkit root (the
folder holding bin/) on stdout. Exit 3 when PyPI cannot be reached (the caller skips), 1 on any
other failure (a bad sha256, no linux x86_64 wheel). Each wheel's sha256 is checked against PyPI's
JSON metadata before anything is unpacked; the unpacked tree is kept (with a .done marker) and the
wheel deleted, so a second run is offline.
"""
import hashlib
import json
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile

# What the probe runs or reads: ptxas (cu11/cu12 wheels have no nvcc), nvcc with its profile, and
# the header that holds the host-compiler guards. The rest of the wheel is not kept.
WANTED = ("/bin/ptxas", "/bin/nvcc", "/bin/nvcc.profile", "/include/crt/host_config.h")


def offline(msg):
    print(msg, file=sys.stderr)
    sys.exit(3)


def unreachable(url, e):
    """No answer at all is "offline" (exit 3); an HTTP error (a 404 for a cited wheel) is a failure."""
    if isinstance(e, urllib.error.HTTPError):
        sys.exit(f"{url}: {e}")
    offline(f"{url}: {e}")


def fetch(project, version, tmp, unpacked):
    """Downloads PROJECT==VERSION's linux x86_64 wheel, checks its sha256, unpacks WANTED; returns the names."""
    url = f"https://pypi.org/pypi/{project}/json"
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            meta = json.load(r)
    except (urllib.error.URLError, OSError) as e:
        unreachable(url, e)
    wheels = [f for f in meta["releases"].get(version, []) if f["filename"].endswith(".whl")
              and "x86_64" in f["filename"] and "linux" in f["filename"]]
    if not wheels:
        sys.exit(f"{url}: no linux x86_64 wheel of {version}")
    w = wheels[0]
    wheel_url = urllib.parse.urljoin(url, w["url"])  # a mirror may give it relative to the JSON
    path = os.path.join(tmp, w["filename"])
    h = hashlib.sha256()
    try:
        with urllib.request.urlopen(wheel_url, timeout=120) as r, open(path, "wb") as out:
            while chunk := r.read(1 << 20):
                h.update(chunk)
                out.write(chunk)
    except (urllib.error.URLError, OSError) as e:
        unreachable(wheel_url, e)
    if h.hexdigest() != w["digests"]["sha256"]:
        sys.exit(f"{wheel_url}: sha256 {h.hexdigest()} but PyPI says {w['digests']['sha256']}")
    names = []
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            name = info.filename
            if not ("/" + name).endswith(WANTED):
                continue
            z.extract(info, unpacked)
            os.chmod(os.path.join(unpacked, name), 0o755 if "/bin/" in "/" + name else 0o644)
            names.append(name)
    os.remove(path)
    return names


def main():
    cache, project, version, extras = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    dest = os.path.join(cache, "+".join([project] + extras) + "-" + version)
    marker = os.path.join(dest, ".done")
    if os.path.exists(marker):
        print(open(marker).read().strip())
        return
    os.makedirs(cache, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=cache, prefix=".part-")
    try:
        unpacked = os.path.join(tmp, "tree")
        roots = [os.path.dirname(os.path.dirname(n)) for n in fetch(project, version, tmp, unpacked)
                 if n.endswith("bin/ptxas")]
        if not roots:
            sys.exit(f"{project} {version}: no bin/ptxas in the wheel")
        for extra in extras:
            fetch(extra, version, tmp, unpacked)
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(unpacked, dest)
        with open(marker, "w") as m:
            m.write(os.path.join(dest, roots[0]) + "\n")
        print(os.path.join(dest, roots[0]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
