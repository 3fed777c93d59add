#!/usr/bin/env python3
# compare.py LKET_OUT BT_TEXT: the events of lket.out (lket-b2a -o) and of
# babeltrace2 --clock-cycles reading the --ctf export of the same trace
# must be the same: as many, in the same order on each CPU, with the same
# time, name, tid, pid and field values.  Prints the lost and dropped
# count of lket.out (the sum of its lket.lost and lket.dropped lines).
import re
import sys


def unescape(s):
    """the bytes of an escaped string, read as UTF-8 (raw when not)"""
    out, i = bytearray(), 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            n = s[i + 1]
            if n == 'x':
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            out += {'n': '\n', 't': '\t', 'r': '\r', '0': '\0',
                    'a': '\a', 'e': '\x1b', 'b': '\b', 'f': '\f',
                    'v': '\v'}.get(n, n).encode()
            i += 2
            continue
        out += c.encode('utf-8', 'surrogateescape')
        i += 1
    return out.decode('utf-8', 'surrogateescape')


def value(tok):
    if tok.startswith('"'):
        return unescape(tok[1:-1])
    return int(tok, 0)


def quoted(s, i):
    """end of the quoted string starting at s[i]"""
    i += 1
    while s[i] != '"':
        i += 2 if s[i] == '\\' else 1
    return i + 1


def lket_fields(s):
    fields, i = [], 0
    while i < len(s):
        eq = s.index('=', i)
        name = s[i:eq]
        j = eq + 1
        if s[j] == '"':
            k = quoted(s, j)
        elif s[j] == '[':
            # a call stack, as addresses (--no-symbols): [0x1, 0x2]
            k = s.index(']', j) + 1
            fields.append((name, [int(x, 0) for x in
                                  s[j + 1:k - 1].split(', ') if x]))
            i = k + 1
            continue
        else:
            k = s.find(' ', j)
            k = len(s) if k < 0 else k
        tok = s[j:k]
        if name == 'raw':
            fields.append((name, tok.lower()))
        else:
            fields.append((name, value(tok)))
        i = k + 1
    return fields


def lket(path):
    events, lost = {}, 0
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        line = line.rstrip('\n')
        cols = line.split(' ', 6)
        ts, cpu, tid, pid, _comm, name = cols[:6]
        rest = cols[6] if len(cols) > 6 else ''
        if name in ('lket.lost', 'lket.dropped'):
            lost += int(re.match(r'count=(\d+)', rest).group(1))
            continue
        sec, ns = ts.split('.')
        t = int(sec) * 1000000000 + int(ns)
        m = re.match(r'unknown\[(\d+):(\d+)\]$', name)
        name = 'unknown_%s_%s' % m.groups() if m else name.replace('.', '_')
        events.setdefault(int(cpu), []).append(
            (t, name, int(tid), -1 if pid == '-' else int(pid),
             lket_fields(rest)))
    return events, lost


def bt_fields(s):
    fields, i = [], 0
    raw = None
    while i < len(s):
        eq = s.index(' = ', i)
        name = s[i:eq]
        j = eq + 3
        if s[j] == '"':
            k = quoted(s, j)
            v = value(s[j:k])
        elif s[j] == '[':
            k = s.index(' ]', j) + 2
            items = re.findall(r'\[\d+\] = (\w+)', s[j:k])
            # raw bytes as hex text; a call stack as its addresses
            v = (''.join('%02x' % int(x) for x in items) if name == 'raw'
                 else [int(x, 0) for x in items])
        else:
            k = s.find(', ', j)
            k = len(s) if k < 0 else k
            v = int(s[j:k], 0)
        i = k + 2
        if name == 'raw_length' or (name.startswith('_') and
                                    name.endswith('_length')):
            continue
        if name == 'raw':
            raw = v
            continue
        # a name met before in the event was made unique: name_N
        m = re.match(r'(.*)_\d+$', name)
        if m and any(f[0] == m.group(1) for f in fields):
            name = m.group(1)
        fields.append((name, v))
    if raw is not None:
        fields.append(('raw', raw))
    return fields


BT = re.compile(r'\[(\d+)\] \([^)]*\) (\S+): \{ cpu_id = (\d+) \}, '
                r'\{ tid = (-?\d+), pid = (-?\d+) \}(?:, \{ (.*) \})?$')


def babeltrace(path):
    events = {}
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        m = BT.match(line.rstrip('\n'))
        if not m:
            sys.exit('compare.py: not an event of babeltrace2: ' + line)
        t, name, cpu, tid, pid, rest = m.groups()
        events.setdefault(int(cpu), []).append(
            (int(t), name, int(tid), int(pid), bt_fields(rest or '')))
    return events


def main():
    want, lost = lket(sys.argv[1])
    got = babeltrace(sys.argv[2])
    bad = 0
    for cpu in sorted(set(want) | set(got)):
        w, g = want.get(cpu, []), got.get(cpu, [])
        if len(w) != len(g):
            print('CPU %d: %d events in lket.out, %d read from CTF'
                  % (cpu, len(w), len(g)), file=sys.stderr)
            bad += 1
        for i, (a, b) in enumerate(zip(w, g)):
            if a != b:
                print('CPU %d event %d:\n  lket.out %r\n  CTF      %r'
                      % (cpu, i, a, b), file=sys.stderr)
                bad += 1
                break
    print(lost)
    return 1 if bad else 0


sys.exit(main())
