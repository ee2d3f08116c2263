#!/usr/bin/env python3
"""Every exported function of the public headers carries a Doxygen comment.

For each FM_API declaration in include/fipsmod/*.h, the lines just above it (FM_MUST_CHECK and
attribute lines skipped) must end a comment that opens with "/**". Prints each undocumented
function and exits 1; prints the count checked and exits 0 otherwise."""
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
bad, checked = [], 0
for path in sorted(glob.glob(os.path.join(root, 'include', 'fipsmod', '*.h'))):
    lines = open(path).read().split('\n')
    for i, line in enumerate(lines):
        m = re.match(r'^FM_API\b.*?\b(fm_[a-z0-9_]+)\s*\(', line)
        if not m:
            continue
        checked += 1
        j = i - 1
        while True:
            while j >= 0 and (lines[j].strip() == 'FM_MUST_CHECK' or lines[j].startswith('FM_ATTR')):
                j -= 1
            # A declaration that follows another with no blank line belongs to its group, which
            # the comment above the group's first declaration documents (fm_sha256/384/512).
            if j >= 0 and lines[j].rstrip().endswith(');') and '*/' not in lines[j]:
                while j >= 0 and not lines[j].startswith('FM_API'):
                    j -= 1
                j -= 1
                continue
            break
        ok = False
        if j >= 0 and lines[j].rstrip().endswith('*/'):
            k = j
            while k >= 0 and '/*' not in lines[k]:
                k -= 1
            ok = k >= 0 and lines[k].lstrip().startswith('/**')
        if not ok:
            bad.append(f'{os.path.relpath(path, root)}:{i + 1}: {m.group(1)} has no /** comment')
for b in bad:
    print(b)
print(f'{checked} exported functions checked, {len(bad)} without a Doxygen comment')
sys.exit(1 if bad or checked == 0 else 0)
