#!/usr/bin/env python3
"""Turn the public headers' plain C comments into Doxygen comments, in place.

- The file's first comment (before the include guard) becomes "/** @file ...".
- A comment block that starts a line and is directly followed (no blank line) by a declaration
  or definition becomes "/** ...".
- A trailing comment after a member, enumerator or field on the same line becomes "/**< ...".
Comments already in Doxygen form are left alone. Idempotent."""
import re
import sys

DECL = re.compile(r'^\s*(FM_API|FM_MUST_CHECK|typedef|struct|enum|union|#define|static inline|'
                  r'[A-Za-z_][A-Za-z0-9_ \*]*\(|[A-Za-z_][A-Za-z0-9_]*\s*(=|,)|[A-Za-z_]|\})')


def convert(text):
    lines = text.split('\n')
    out = []
    i = 0
    first_done = False
    n = len(lines)
    while i < n:
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith('/*') and not stripped.startswith('/**') and not stripped.startswith('/*!'):
            # a block comment starting this line: find its end
            j = i
            while '*/' not in lines[j]:
                j += 1
            block = lines[i:j + 1]
            after = lines[j + 1] if j + 1 < n else ''
            indent = line[:len(line) - len(stripped)]
            if not first_done and i < 5 and indent == '':
                rest = block[0].strip()[2:].strip()
                block[0:1] = ['/** @file'] + ([' * ' + rest] if rest else [])
                first_done = True
            elif after.strip() and DECL.match(after) and not after.lstrip().startswith('#include') \
                    and not after.lstrip().startswith('#if') and not after.lstrip().startswith('#endif') \
                    and not after.lstrip().startswith('/*'):
                block[0] = block[0].replace('/*', '/**', 1)
            out.extend(block)
            i = j + 1
            continue
        first_done = first_done or (stripped != '' and not stripped.startswith('//'))
        # trailing comment after code on the same line
        m = re.match(r'^(\s*[^/\s].*?\S)(\s+)/\*(?![*!<])(.*)$', line)
        if m and not stripped.startswith('#include') and not stripped.startswith('#if') \
                and not stripped.startswith('#endif') and not stripped.startswith('#else'):
            line = f'{m.group(1)}{m.group(2)}/**<{m.group(3)}'
        out.append(line)
        i += 1
    return '\n'.join(out)


for path in sys.argv[1:]:
    with open(path) as f:
        t = f.read()
    c = convert(t)
    if c != t:
        with open(path, 'w') as f:
            f.write(c)
