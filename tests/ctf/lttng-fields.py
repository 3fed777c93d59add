#!/usr/bin/env python3
# lttng-fields.py LTTNG_MODULES_SRC METADATA CALLS: the system call
# classes of a CTF export (its TSDL metadata) carry the fields that
# lttng-modules' own x86-64 system call instrumentation gives them, read
# from its source (the lttng-modules-dkms package): a
# syscall_entry_NAME's first members are the call's entry fields
# (sc_in, sc_inout), in order, a string where LTTng's is one; a
# syscall_exit_NAME's first is ret.  CALLS classes of syscall_entry_ must
# have LTTng's fields (lket-gen allcalls writes that many).
import glob
import os
import re
import sys

EVENT = re.compile(r'SC_LTTNG_TRACEPOINT_EVENT(?:_CODE)?\(\s*(\w+),(.*?)\n\)',
                   re.S)
# a field of TP_FIELDS: its macro and arguments, up to the closing paren
FIELD = re.compile(r'sc_(in|inout|out|exit)\(\s*(ctf_\w+)\(([^()]*)\)\s*\)')


def field_name(macro, args):
    args = [a.strip() for a in args.split(',')]
    if macro in ('ctf_user_string', 'ctf_string'):
        return args[0], 'string'
    if macro == 'ctf_enum':
        return args[2], 'integer'
    return args[1], 'integer'


def lttng_calls(src):
    """name -> [(field, kind)] of the entry, from the x86-64 headers; an
    override (syscalls_*_override.h) where there is one"""
    d = os.path.join(src, 'include', 'instrumentation', 'syscalls',
                     'headers')
    files = sorted(glob.glob(os.path.join(d, 'x86-64-syscalls_*.h')))
    files += sorted(glob.glob(os.path.join(d, 'syscalls_*_override.h')))
    calls = {}
    for path in files:
        text = open(path, encoding='utf-8', errors='replace').read()
        for m in EVENT.finditer(text):
            name, body = m.groups()
            fields = [field_name(f.group(2), f.group(3))
                      for f in FIELD.finditer(body)
                      if f.group(1) in ('in', 'inout')]
            calls[name] = fields
    return calls


def export_classes(path):
    """class name -> [(member, kind)] of a TSDL metadata file"""
    text = open(path, encoding='utf-8', errors='replace').read()
    out = {}
    for m in re.finditer(r'event \{\n\tname = "([^"]*)";.*?fields := struct '
                         r'\{\n(.*?)\t\};', text, re.S):
        members = []
        for line in m.group(2).splitlines():
            f = re.search(r'(string|integer \{[^}]*\}) _(\w+)(\[|;)', line)
            if f:
                members.append((f.group(2),
                                'string' if f.group(1) == 'string'
                                else 'integer'))
        out[m.group(1)] = members
    return out


def main():
    src, metadata, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
    lttng = lttng_calls(src)
    if len(lttng) < 200:
        sys.exit('lttng-fields.py: %d system calls in %s: not lttng-modules\' '
                 'x86-64 instrumentation' % (len(lttng), src))
    bad, mapped = [], 0
    for name, members in sorted(export_classes(metadata).items()):
        for prefix in ('syscall_entry_', 'syscall_exit_'):
            if not name.startswith(prefix) or name[len(prefix):] == 'unknown':
                continue
            call = name[len(prefix):]
            if call not in lttng:
                bad.append('%s: lttng-modules has no system call %s'
                           % (name, call))
                continue
            if prefix == 'syscall_exit_':
                if not members or members[0] != ('ret', 'integer'):
                    bad.append('%s: first member %r, not ret' % (
                        name, members[:1]))
                continue
            if [m for m, _ in members] == ['syscall_name']:
                continue    # LKET's name alone: no hook's record
            mapped += 1
            fields = lttng[call]
            if members[:len(fields)] != fields:
                bad.append('%s: %s, lttng-modules %s' % (
                    name, members[:len(fields)], fields))
    for b in bad:
        print('lttng-fields.py: ' + b, file=sys.stderr)
    if mapped != want:
        print('lttng-fields.py: %d syscall_entry_ classes with LTTng\'s '
              'fields, not %d' % (mapped, want), file=sys.stderr)
    print('%d system call classes as lttng-modules %s has them' % (
        mapped, os.path.basename(os.path.normpath(src))))
    return 1 if bad or mapped != want else 0


if __name__ == '__main__':
    sys.exit(main())
