#!/usr/bin/env python3
"""Functions longer than N lines (default 120) in C++ sources, longest first, as "LINES  FILE:LINE  NAME".

Usage: tools/long_functions.py [--min N] [--check] [PATH ...]     (PATH: files or folders; default src/)
--check exits 1 when it lists a function (the ctest src_function_length holds src/ to 120 lines).

How it counts (approximate, by brace matching, no parser): comments, string and character literals
(raw strings included) and preprocessor lines are blanked first, keeping line breaks. A `{` opened at
namespace or class scope whose text since the previous `;`, `{` or `}` has a parenthesis, is not an
initializer (`= {`) and does not start with namespace/class/struct/union/enum/extern, opens a
function body; its length is the lines from the first line of that text (the signature, comments
above it not counted) to the matching `}`, both included, blank lines and the lines of an embedded
raw string counted. Lambdas and local classes count towards the function that holds them; a lambda
or initializer at namespace scope is not counted at all.
"""
import argparse
import bisect
import os
import re
import sys

SCOPE_HEAD = re.compile(r'^(?:template\s*<.*?>\s*)?(?:inline\s+)?(?:namespace|class|struct|union|enum|extern)\b', re.S)
RAW_OPEN = re.compile(r'(?:u8|u|U|L)?R"([^ ()\\\t\n]{0,16})\(')


def blank(text):
    """The text with comments, literals and preprocessor lines replaced by spaces (line breaks kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == '#':
            # A preprocessor line, with its backslash continuations.
            while i < n and not (text[i] == '\n' and text[i - 1] != '\\'):
                out.append('\n' if text[i] == '\n' else ' ')
                i += 1
            continue
        if c in ' \t':
            out.append(c)
            i += 1
            continue
        line_start = c == '\n'
        if text.startswith('//', i):
            while i < n and text[i] != '\n':
                out.append(' ')
                i += 1
            continue
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
            continue
        m = RAW_OPEN.match(text, i)
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            close = ')' + m.group(1) + '"'
            end = text.find(close, m.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + re.sub(r'[^\n]', ' ', text[i + 2:end - 2]) + '  ' if end - i >= 4 else text[i:end])
            i = end
            continue
        if c in '"\'':
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + ' ' * (j - i - 2) + c if j - i >= 2 else text[i:j])
            i = j
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def function_name(head):
    """The qualified name before the first top-level parenthesis of a function's head."""
    depth = 0
    for k, ch in enumerate(head):
        if ch == '<':
            depth += 1
        elif ch == '>' and depth > 0:
            depth -= 1
        elif ch == '(' and depth == 0:
            m = re.search(r'((?:[A-Za-z_~][\w]*\s*(?:<[^()]*>)?\s*::\s*)*(?:operator\s*[^\s(]+|operator\s*\(\s*\)|~?[A-Za-z_]\w*))\s*$', head[:k])
            return re.sub(r'\s+', '', m.group(1)) if m else head[:k].split()[-1:] or '?'
    return '?'


def is_function_head(head):
    h = head.strip()
    if '(' not in h or SCOPE_HEAD.match(h):
        return False
    # `= {` at the top level (not a default argument, not operator=) is an initializer.
    depth = 0
    flat = re.sub(r'operator\s*(?:[=!<>+\-*/%^&|]=?|==|\(\)|\[\])', 'operator', h)
    for ch in flat:
        if ch in '([<':
            depth += 1
        elif ch in ')]>' and depth > 0:
            depth -= 1
        elif ch == '=' and depth == 0:
            return False
    return True


def functions(path):
    """(first line, last line, name) of each function body in one file."""
    with open(path, encoding='utf-8', errors='replace') as f:
        text = blank(f.read())
    found = []
    stack = []          # 'scope', 'fn' or 'block' for each open brace
    head_start = 0      # offset where the text since the last ; { } begins
    newlines = [m.start() for m in re.finditer('\n', text)]

    def line_of(off):
        return bisect.bisect_left(newlines, off) + 1

    fn_open = []
    for i, ch in enumerate(text):
        at_scope = all(k == 'scope' for k in stack)
        if ch == '{':
            if at_scope:
                head = text[head_start:i]
                if SCOPE_HEAD.match(head.strip()):
                    stack.append('scope')
                elif is_function_head(head):
                    stack.append('fn')
                    lead = len(head) - len(head.lstrip())
                    fn_open.append((line_of(head_start + lead), function_name(head.strip())))
                else:
                    stack.append('block')
            else:
                stack.append('block')
            head_start = i + 1
        elif ch == '}':
            kind = stack.pop() if stack else 'scope'
            if kind == 'fn':
                first, name = fn_open.pop()
                found.append((first, line_of(i), name))
            head_start = i + 1
        elif ch == ';' and at_scope:
            head_start = i + 1
    return found


def sources(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(('.cpp', '.cc', '.h', '.hpp')):
                        yield os.path.join(root, name)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--min', type=int, default=120, help='list functions longer than this many lines')
    ap.add_argument('--check', action='store_true', help='exit 1 when a function is listed')
    ap.add_argument('paths', nargs='*', default=['src'])
    args = ap.parse_args()
    rows = []
    for path in sources(args.paths):
        for first, last, name in functions(path):
            length = last - first + 1
            if length > args.min:
                rows.append((length, path, first, name))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    for length, path, first, name in rows:
        print(f'{length:5d}  {path}:{first}  {name}')
    if args.check and rows:
        print(f'{len(rows)} function(s) over {args.min} lines: split each into named phases', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
