#!/usr/bin/env python3
# proto-fields.py [-I DIR]... PROTO...: every field and enum value of the
# .proto files (and what they import) as protoc reads them, a line each,
# names relative to their package:
#
#   field Message.Nested.name NUMBER TYPE LABEL
#   value Enum.NAME NUMBER
#
# TYPE is a scalar's name or a message's or enum's name relative to its
# package.  What tests/unit/test_pf_fields.c checks the C constants
# against, and tests/perfetto/upstream.sh compares with Perfetto's own.
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pbtext import parse  # noqa: E402

SCALAR = {'TYPE_DOUBLE': 'double', 'TYPE_FLOAT': 'float',
          'TYPE_INT64': 'int64', 'TYPE_UINT64': 'uint64',
          'TYPE_INT32': 'int32', 'TYPE_FIXED64': 'fixed64',
          'TYPE_FIXED32': 'fixed32', 'TYPE_BOOL': 'bool',
          'TYPE_STRING': 'string', 'TYPE_BYTES': 'bytes',
          'TYPE_UINT32': 'uint32', 'TYPE_SFIXED32': 'sfixed32',
          'TYPE_SFIXED64': 'sfixed64', 'TYPE_SINT32': 'sint32',
          'TYPE_SINT64': 'sint64'}


def one(d, k, default=None):
    v = d.get(k)
    return v[0] if v else default


def walk(pkg, prefix, msg, out):
    name = prefix + one(msg, 'name')
    for f in msg.get('field', []):
        t = one(f, 'type')
        if t in SCALAR:
            t = SCALAR[t]
        else:
            t = one(f, 'type_name').lstrip('.')
            if pkg and t.startswith(pkg + '.'):
                t = t[len(pkg) + 1:]
        label = one(f, 'label').replace('LABEL_', '').lower()
        out.append('field %s.%s %d %s %s' % (name, one(f, 'name'),
                                            one(f, 'number'), t, label))
    for e in msg.get('enum_type', []):
        enum(name + '.', e, out)
    for n in msg.get('nested_type', []):
        walk(pkg, name + '.', n, out)


def enum(prefix, e, out):
    for v in e.get('value', []):
        out.append('value %s%s.%s %d' % (prefix, one(e, 'name'),
                                         one(v, 'name'), one(v, 'number')))


def main():
    args = sys.argv[1:]
    includes = []
    while args and args[0] == '-I':
        includes += ['-I', args[1]]
        args = args[2:]
    with tempfile.NamedTemporaryFile(suffix='.pb') as desc:
        subprocess.run(['protoc'] + includes + ['--include_imports',
                        '--descriptor_set_out=' + desc.name] + args,
                       check=True)
        text = subprocess.run(
            ['protoc', '-I/usr/include',
             '--decode=google.protobuf.FileDescriptorSet',
             'google/protobuf/descriptor.proto'],
            stdin=open(desc.name, 'rb'), check=True,
            capture_output=True).stdout.decode()
    tree, _ = parse(text)
    out = []
    for f in tree.get('file', []):
        pkg = one(f, 'package', '')
        for m in f.get('message_type', []):
            walk(pkg, '', m, out)
        for e in f.get('enum_type', []):
            enum('', e, out)
    print('\n'.join(sorted(set(out))))


if __name__ == '__main__':
    main()
