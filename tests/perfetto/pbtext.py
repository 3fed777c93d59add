# pbtext.py: protoc's text format (protoc --decode) as nested dicts, for
# the Perfetto export's tests (pfcheck.py, proto-fields.py): each message
# a dict of field name -> list of values (ints, strings, enum names,
# dicts); fields protoc knows only by number are listed apart.
import re

TOKEN = re.compile(r'\s*(?:([A-Za-z_][A-Za-z0-9_]*|\d+)\s*(:)?\s*(\{)?|(\})|'
                   r'("(?:[^"\\]|\\.)*"|[^\s{}]+))')


def unescape(s):
    out = bytearray()
    i = 0
    b = s.encode()
    while i < len(b):
        c = b[i]
        if c != 0x5c:
            out.append(c)
            i += 1
            continue
        n = b[i + 1]
        simple = {ord('n'): 10, ord('t'): 9, ord('r'): 13, ord('"'): 34,
                  ord("'"): 39, ord('\\'): 92, ord('a'): 7, ord('b'): 8,
                  ord('f'): 12, ord('v'): 11}
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n == ord('x'):
            m = re.match(rb'[0-9a-fA-F]{1,2}', b[i + 2:])
            out.append(int(m.group(0), 16))
            i += 2 + len(m.group(0))
        else:
            m = re.match(rb'[0-7]{1,3}', b[i + 1:])
            out.append(int(m.group(0), 8))
            i += 1 + len(m.group(0))
    return out.decode('utf-8', 'surrogateescape')


def parse(text):
    """protoc's text format as nested dicts of lists."""
    root = {}
    stack = [root]
    unknown = []
    pos = 0
    while True:
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        name, colon, brace, close, value = m.groups()
        if close:
            stack.pop()
            continue
        if name is None:
            raise ValueError('value without a name at %d' % pos)
        if name.isdigit():
            unknown.append(name)
        if brace:
            d = {}
            stack[-1].setdefault(name, []).append(d)
            stack.append(d)
            continue
        m2 = re.compile(r'\s*("(?:[^"\\]|\\.)*"|[^\s{}]+)').match(text, pos)
        v = m2.group(1)
        pos = m2.end()
        if v.startswith('"'):
            v = unescape(v[1:-1])
        elif re.fullmatch(r'-?\d+', v):
            v = int(v)
        stack[-1].setdefault(name, []).append(v)
    return root, unknown


