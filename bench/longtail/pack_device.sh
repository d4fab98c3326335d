#!/usr/bin/env bash
# Packs the long-tail corpus for a machine with no network: each package's source as a gzipped
# `git archive` of an already-fetched mirror, checked against corpus.toml's sha256, plus the runner
# (run_device.sh) and the list it reads (packages.tsv), into .device/longtail/ (git-ignored).
# It never fetches: the mirrors come from the `fetch` tool (MIRRORS/OWNER+NAME/repo[/.git]).
#
#   bench/longtail/pack_device.sh [--mirrors DIR] [--dest DIR] [--torchsmith BIN] [--batch N]
#       [--split dev|held-out] [--wheelhouse] [--system]
#
# --mirrors: where the mirrors are (default $TORCHSMITH_MIRRORS); --dest: default .device/longtail;
# --batch: only the packages of that batch (corpus.toml's `batch`, 1 where absent; default: all);
# --split: only that split's packages (default: both);
# --only "NAME ...": only these packages (e.g. `ledger.py --failing --split dev`'s names; a name
# corpus.toml lacks stops the pack);
# --torchsmith: also put a stripped copy of this binary there (the runner otherwise takes
# .device/torchsmith). A package whose commit (or a blob) the mirror lacks is listed "unavailable"
# with why, never built from another commit. The gunzipped archive's sha256 is the manifest's.
# --wheelhouse: also DEST/wheelhouse, wheels downloaded here from PyPI (the one step that uses the
# network) for what the packed packages' Python build and runtime declare: pyproject.toml's
# [build-system] requires and [project] dependencies, setup.py's literal install_requires and
# setup_requires (install_requires also through a name, a function setup.py defines or the
# requirements file it reads, or a top-level list a later statement fills from one, read without
# running setup.py), pybind11 where a CMake file fetches it, and (alone, --no-deps) the
# distribution build.toml's [[header_wheel]] names for headers a package's sources include and its
# archive lacks (nvidia-cutlass: headers, not CUDA's runtime);
# with their dependencies, for the device's Python (WHEEL_PYTHON, 3.12) on manylinux x86_64, binary
# wheels only. Never torch or its kin (torch, torchvision, torchaudio, triton, nvidia-*, a -cuNNN
# build): a requirement whose dependencies reach one is skipped and named. Left out too: what the
# device's torch environment has (numpy, setuptools, wheel, pip) and cmake/ninja (torchsmith
# provisions its own). run_device.sh passes the directory to both tools alike.
# --system: also DEST/sysroot, the Debian packages the packed packages' own READMEs tell a user to
# install (corpus.toml's `system`, with `system_source` naming the line), downloaded here with
# `apt-get download` and unpacked with `dpkg-deb -x` (header-only libraries: the device has no apt
# and no network). run_device.sh puts its include directory on CPATH for both tools alike. Also
# DEST/header-sources: build.toml's [[header_source]] folders (the CUDA samples' Common/ helpers) for
# headers the packed sources include and their archives lack, from the mirrors at the pinned commit;
# run_device.sh gives them to torchsmith alone (TORCHSMITH_HEADER_SOURCE_MIRROR): its repair.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mirrors=${TORCHSMITH_MIRRORS:-} dest=$root/.device/longtail bin="" batch=all only_split=all only="" house=0 system=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mirrors) mirrors=$2; shift 2 ;;
    --dest) dest=$2; shift 2 ;;
    --torchsmith) bin=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --split) only_split=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --wheelhouse) house=1; shift ;;
    --system) system=1; shift ;;
    *) echo "pack_device.sh: unknown argument '$1' (see the comment at the top)" >&2; exit 2 ;;
  esac
done
[ -n "$mirrors" ] && [ -d "$mirrors" ] ||
  { echo "pack_device.sh: --mirrors DIR (or TORCHSMITH_MIRRORS): the directory of fetched bare repositories, DIR/OWNER+NAME/repo" >&2; exit 2; }
[[ "$batch" = all || "$batch" =~ ^[1-9][0-9]*$ ]] ||
  { echo "pack_device.sh: --batch N: a batch number of corpus.toml (1, 2, ...), not '$batch'" >&2; exit 2; }
[[ "$only_split" = all || "$only_split" = dev || "$only_split" = held-out ]] ||
  { echo "pack_device.sh: --split dev|held-out, not '$only_split'" >&2; exit 2; }
mkdir -p "$dest"
rm -f "$dest"/*.tar.gz "$dest/packages.tsv.tmp"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# name repo commit subdir split sha256 exclude(;-joined) unavailable, one package a line.
python3 - "$here/corpus.toml" "$batch" "$only_split" "$only" > "$scratch/list" <<'PY' || exit 2
import sys, tomllib
packages = tomllib.load(open(sys.argv[1], "rb"))["package"]
only = set(sys.argv[4].split())
unknown = sorted(only - {p["name"] for p in packages})
if unknown:
    sys.exit("pack_device.sh: --only names packages corpus.toml lacks: " + " ".join(unknown))
for p in packages:
    if only and p["name"] not in only:
        continue
    if sys.argv[2] != "all" and p.get("batch", 1) != int(sys.argv[2]):
        continue
    if sys.argv[3] != "all" and p["split"] != sys.argv[3]:
        continue
    print("\t".join([p["name"], p["repo"], p["commit"], p["subdir"] or ".", p["split"], p["sha256"] or "-",
                     ";".join(p.get("exclude", [])) or "-", p.get("unavailable", "") or "-"]))
PY

unavailable() {  # NAME SPLIT WHY
  printf '%s\t%s\t-\t-\tunavailable: %s\n' "$1" "$2" "$3" >> "$dest/packages.tsv.tmp"
  echo "$1: unavailable: $3" >&2
}

# Submodules (what `git clone --recursive` brings, theirs included): each gitlink's commit from its
# own mirror, appended to $tarball under its path, its archive's sha256 checked against the
# manifest's submodules (keyed by the path in the package's tree).
# ADD_SUBMODULES GIT_DIR COMMIT(.gitmodules) REV TREE_PATH PREFIX SLUG(OWNER/NAME, for a relative
# url); reads name, tarball, scratch.
add_submodules() {
  local git_dir=$1 commit=$2 rev=$3 tree_path=$4 prefix=$5 info path full sub_commit key url slug sub_git want got
  local base
  while IFS=$'\t' read -r info path; do
    [ -n "$path" ] || continue
    full=$prefix$path
    sub_commit=$(echo "$info" | cut -d' ' -f3)
    key=$(git -C "$git_dir" config --blob "$commit:.gitmodules" --get-regexp '^submodule\..*\.path$' |
      awk -v p="$path" '$2 == p { print $1; exit }' || true)
    url=$(git -C "$git_dir" config --blob "$commit:.gitmodules" "${key%.path}.url" 2>/dev/null || true)
    slug=$(echo "$url" | sed -E 's#^(https://github.com/|git@github.com:)##; s#\.git$##')
    if [ "${slug#../}" != "$slug" ]; then  # relative to the superproject's url, resolved as git does
      base=/$6
      while [ "${slug#../}" != "$slug" ]; do slug=${slug#../}; base=${base%/*}; done
      slug=${base#/}${base:+/}$slug
    fi
    sub_git=$mirrors/${slug/\//+}/repo
    [ -d "$sub_git/.git" ] && sub_git=$sub_git/.git
    want=$(python3 -c 'import sys, tomllib
p = [p for p in tomllib.load(open(sys.argv[1], "rb"))["package"] if p["name"] == sys.argv[2]][0]
print(p.get("submodules", {}).get(sys.argv[3], "-"))' "$here/corpus.toml" "$name" "$full")
    if ! git -C "$sub_git" archive --format=tar --prefix="$full/" -o "$scratch/sub.tar" "$sub_commit" 2>/dev/null; then
      echo "$name: submodule $full ($url at $sub_commit): no mirror with that commit at $sub_git; left empty" >&2
      continue
    fi
    got=$(sha256sum "$scratch/sub.tar" | cut -d' ' -f1)
    if [ "$want" != "$got" ]; then
      echo "$name: submodule $full archive sha256 $got, manifest $want: pin it in corpus.toml" >&2; bad=1; continue
    fi
    tar -A -f "$tarball" "$scratch/sub.tar"
    add_submodules "$sub_git" "$sub_commit" "$sub_commit" . "$full/" "$slug"
  done < <(git -C "$git_dir" ls-tree -r "$rev" -- "$tree_path" | awk -F'\t' '$1 ~ /^160000/ { print $1 "\t" $2 }')
}

# Files the package reaches above its subdir through quoted includes (fairseq's lightconv_layer:
# `#include "../cuda_utils.cu"`), and what those include in turn, and the paths its setup.py spells
# above it (NeuralTracking's csrc: os.path.join(dirname(__file__), '..', 'external', 'eigen3'), a whole
# directory), appended from the same commit, as torchsmith's run copies them
# (src/source/outside_reach.cpp, whose setup_py_paths_above this reads with Python's ast: literal
# runs joined by a ...join call or `/`, starting with '..'; never a directory holding the subdir).
# The subdir's own archive keeps its sha256.
# ADD_OUTSIDE_REACH GIT_DIR REV SUBDIR; reads tarball, scratch.
add_outside_reach() {
  [ "$3" = . ] && return 0
  local extra
  extra=$(python3 - "$1" "$2" "$3" <<'PY'
import posixpath, re, subprocess, sys
git, rev, sub = sys.argv[1:4]
files = subprocess.run(["git", "-C", git, "ls-tree", "-r", "--name-only", rev, "--", sub], capture_output=True, text=True).stdout.split()
have = set(subprocess.run(["git", "-C", git, "ls-tree", "-r", "--name-only", rev], capture_output=True, text=True).stdout.split())
exts = (".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl")
queue, out = [f for f in files if f.endswith(exts)], []
import ast
trees = set(subprocess.run(["git", "-C", git, "ls-tree", "-r", "-d", "--name-only", rev], capture_output=True, text=True).stdout.split())
setup = subprocess.run(["git", "-C", git, "show", rev + ":" + sub.rstrip("/") + "/setup.py"], capture_output=True).stdout.decode("utf-8", "replace")
def parts(n):  # the literal parts of a path expression, or None
    if isinstance(n, ast.Constant) and isinstance(n.value, str): return [n.value]
    if isinstance(n, ast.Attribute) and n.attr == "pardir": return [".."]
    if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div):
        l, r = parts(n.left), parts(n.right)
        return (l or []) + r if r is not None else None
    return None
runs = []
try:
    tree = ast.parse(setup)
    inner = set()  # a join call's argument or a `/` operand: only the whole expression is a path
    for n in ast.walk(tree):
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div): inner |= {id(n.left), id(n.right)}
        f = n.func if isinstance(n, ast.Call) else None
        if f is not None and (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")).endswith("join"):
            inner |= {id(a) for a in n.args}
    for n in ast.walk(tree):
        f = n.func if isinstance(n, ast.Call) else None
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if f is not None and name.endswith("join"):
            run = []
            for a in n.args + [None]:
                p = parts(a) if a is not None else None
                if p is None or (isinstance(a, ast.BinOp) and run):
                    if run: runs.append(run)
                    run = [] if p is None else p
                else:
                    run += p
        elif isinstance(n, (ast.BinOp, ast.Constant)) and id(n) not in inner and parts(n):
            runs.append(parts(n))
except SyntaxError:
    pass
for run in runs:
    t = posixpath.normpath(posixpath.join(sub, *run))
    rel = posixpath.normpath("/".join(run))
    if not (rel == ".." or rel.startswith("../")) or sub.rstrip("/").startswith(t.rstrip("/") + "/") or t in out:
        continue
    if t in have or t in trees:
        out.append(t)
        if t in have and t.endswith(exts): queue.append(t)
while queue:
    f = queue.pop(0)
    text = subprocess.run(["git", "-C", git, "show", rev + ":" + f], capture_output=True).stdout.decode("utf-8", "replace")
    outside = not f.startswith(sub.rstrip("/") + "/")
    for m in re.finditer(r'(?m)^\s*#\s*include\s*"([^"]+)"', text):
        if not outside and ".." not in m.group(1):
            continue
        t = posixpath.normpath(posixpath.join(posixpath.dirname(f), m.group(1)))
        if t in have and not t.startswith(sub.rstrip("/") + "/") and t not in out:
            out.append(t)
            queue.append(t)
print("\n".join(out))
PY
)
  [ -n "$extra" ] || return 0
  # shellcheck disable=SC2086
  git -C "$1" archive --format=tar -o "$scratch/outside.tar" "$2" -- $extra && tar -A -f "$tarball" "$scratch/outside.tar"
}

# Files of the same commit that the package directory's links name outside it (warp-rnnt's
# pytorch_binding/core.cu -> ../core.cu): a clone has them beside the package, the subdirectory's
# archive alone does not. Appended to $tarball under their paths; reads tarball, scratch.
# ADD_LINK_TARGETS GIT_DIR REV SUBDIR
add_link_targets() {
  local git_dir=$1 rev=$2 subdir=$3 info path target resolved
  [ "$subdir" = . ] && return 0
  while IFS=$'\t' read -r info path; do
    target=$(git -C "$git_dir" cat-file blob "$(echo "$info" | cut -d' ' -f3)")
    resolved=$(python3 -c 'import os, sys; print(os.path.normpath(os.path.join(os.path.dirname(sys.argv[1]), sys.argv[2])))' "$path" "$target")
    case "$resolved" in ../*|/*|"$subdir"/*) continue ;; esac
    if git -C "$git_dir" archive --format=tar -o "$scratch/link.tar" "$rev" -- "$resolved" 2>/dev/null; then
      tar -A -f "$tarball" "$scratch/link.tar"
    fi
  done < <(git -C "$git_dir" ls-tree -r "$rev" -- "$subdir" | awk -F'\t' '$1 ~ /^120000/ { print $1 "\t" $2 }')
}

bad=0
while IFS=$'\t' read -r name repo commit subdir split sha exclude why; do
  if [ "$why" != - ]; then unavailable "$name" "$split" "$why"; continue; fi
  slug=${repo#https://github.com/}
  git_dir=$mirrors/${slug/\//+}/repo
  [ -d "$git_dir/.git" ] && git_dir=$git_dir/.git
  if ! git -C "$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    unavailable "$name" "$split" "commit $commit not in $git_dir (fetch $slug first)"; bad=1; continue
  fi
  rev=$commit
  if [ "$exclude" != - ]; then
    # COMMIT's tree without the excluded paths, committed with COMMIT's dates in a scratch repository
    # that borrows the mirror's objects: the same bytes on every run.
    s=$scratch/$name.git
    git init -q --bare "$s" && echo "$(cd "$git_dir" && pwd)/objects" > "$s/objects/info/alternates"
    GIT_INDEX_FILE=$s/index git -C "$s" read-tree "$commit"
    IFS=';' read -ra paths <<< "$exclude"
    GIT_INDEX_FILE=$s/index git -C "$s" rm -q --cached -- "${paths[@]}"
    # --missing-ok: blobs outside SUBDIR that the snapshot lacks are never archived, only listed.
    tree=$(GIT_INDEX_FILE=$s/index git -C "$s" write-tree --missing-ok)
    date=$(git -C "$git_dir" log -1 --format=%cd --date=raw "$commit")
    rev=$(GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x \
      GIT_COMMITTER_NAME=x GIT_COMMITTER_EMAIL=x git -C "$s" commit-tree "$tree" -m x)
    git_dir=$s
  fi
  tarball=$scratch/$name.tar
  if ! git -C "$git_dir" archive --format=tar -o "$tarball" "$rev" -- "$subdir" 2>"$scratch/err"; then
    unavailable "$name" "$split" "git archive failed: $(head -c 200 "$scratch/err")"; bad=1; continue
  fi
  got=$(sha256sum "$tarball" | cut -d' ' -f1)
  if [ "$sha" = - ] || [ "$sha" != "$got" ]; then
    echo "$name: archive sha256 $got, manifest ${sha/-/(none)}: pin it in corpus.toml or fix the mirror" >&2
    bad=1; continue
  fi
  add_submodules "$git_dir" "$commit" "$rev" "$subdir" "" "${repo#https://github.com/}"
  add_outside_reach "$git_dir" "$rev" "$subdir"
  add_link_targets "$git_dir" "$rev" "$subdir"
  gzip -9n < "$tarball" > "$dest/$name.tar.gz"
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$split" "$subdir" "$sha" "$name.tar.gz" >> "$dest/packages.tsv.tmp"
done < "$scratch/list"
mv "$dest/packages.tsv.tmp" "$dest/packages.tsv"
rm -rf "$dest/wheelhouse"
if [ "$house" = 1 ]; then
  python3 "$here/wheelhouse.py" --packages "$dest/packages.tsv" --sources "$dest" --dest "$dest/wheelhouse" \
    --python "${WHEEL_PYTHON:-3.12}" || bad=1
fi
rm -rf "$dest/sysroot"
if [ "$system" = 1 ]; then
  debs=$(python3 - "$here/corpus.toml" "$dest/packages.tsv" <<'PY'
import sys, tomllib
packed = {l.split("\t")[0] for l in open(sys.argv[2]) if l.split("\t")[4].strip().endswith(".tar.gz")}
print(" ".join(sorted({d for p in tomllib.load(open(sys.argv[1], "rb"))["package"]
                       if p["name"] in packed for d in p.get("system", [])})))
PY
)
  if [ -n "$debs" ]; then
    mkdir -p "$scratch/debs" "$dest/sysroot"
    # shellcheck disable=SC2086
    (cd "$scratch/debs" && apt-get download -- $debs) || { echo "pack_device.sh: apt-get download $debs failed" >&2; bad=1; }
    for d in "$scratch"/debs/*.deb; do [ -f "$d" ] && dpkg-deb -x "$d" "$dest/sysroot"; done
    echo "sysroot: $debs" >&2
  fi
  # build.header-source's folders (data/kb/build.toml [[header_source]]) for headers a packed package's
  # sources include and its archive lacks (torch-mesh-isect's helper_math.h), each file from the fetched
  # mirror at the pinned commit, its sha256 checked, laid out as torchsmith's
  # TORCHSMITH_HEADER_SOURCE_MIRROR reads it (OWNER/NAME/COMMIT/PATH/FILE). Only torchsmith reads it:
  # the files are its repair, not the machine's.
  rm -rf "$dest/header-sources"
  python3 - "$root/data/kb/build.toml" "$dest" "$mirrors" <<'PY' || bad=1
import hashlib, os, re, subprocess, sys, tarfile, tomllib
build, dest, mirrors = sys.argv[1:4]
table = tomllib.load(open(build, "rb")).get("header_source", [])
inc = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*["<]([^">]+)[">]', re.M)
wanted = {}
for line in open(os.path.join(dest, "packages.tsv")):
    f = line.rstrip("\n").split("\t")
    if len(f) < 5 or not f[4].endswith(".tar.gz"):
        continue
    with tarfile.open(os.path.join(dest, f[4])) as t:
        members = [m for m in t.getmembers() if m.isfile()]
        have = {os.path.basename(m.name) for m in members}
        for m in members:
            if not m.name.endswith((".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh", ".h", ".hpp")):
                continue
            for name in inc.findall(t.extractfile(m).read()):
                base = os.path.basename(name.decode("utf-8", "replace"))
                for i, h in enumerate(table):
                    if base in h["headers"] and base not in have:
                        wanted.setdefault(i, set()).add(f[0])
for i, pkgs in sorted(wanted.items()):
    h = table[i]
    git = os.path.join(mirrors, h["repository"].replace("/", "+"), "repo")
    git = os.path.join(git, ".git") if os.path.isdir(os.path.join(git, ".git")) else git
    out = os.path.join(dest, "header-sources", h["repository"], h["commit"], h["path"])
    os.makedirs(out, exist_ok=True)
    for name, digest in zip(h["headers"], h["sha256"]):
        r = subprocess.run(["git", "-C", git, "show", "%s:%s/%s" % (h["commit"], h["path"], name)], capture_output=True)
        if r.returncode != 0 or hashlib.sha256(r.stdout).hexdigest() != digest:
            sys.exit("header-sources: %s@%s:%s/%s: not in %s with sha256 %s (fetch %s first)"
                     % (h["repository"], h["commit"], h["path"], name, git, digest, h["repository"]))
        open(os.path.join(out, name), "wb").write(r.stdout)
    print("header-sources: %s@%s:%s (%d files) for %s" % (h["repository"], h["tag"], h["path"], len(h["headers"]),
                                                        " ".join(sorted(pkgs))), file=sys.stderr)
PY
fi
install -m 755 "$here/run_device.sh" "$dest/run_device.sh"
if [ -n "$bin" ]; then
  strip -o "$dest/torchsmith" "$bin" && chmod 755 "$dest/torchsmith"
fi
echo "$(awk -F'\t' '$5 ~ /tar.gz$/' "$dest/packages.tsv" | wc -l) packed," \
  "$(grep -c unavailable "$dest/packages.tsv" || true) unavailable; $dest: $(du -sh "$dest" | cut -f1)"
exit $bad
