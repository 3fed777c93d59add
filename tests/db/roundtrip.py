#!/usr/bin/env python3
"""Every output of one trace read back, value for value, against lket.out.

    roundtrip.py OUT JSON CSV SQLITE [PGCONN SCHEMA PSQL]

OUT is lket.out written with -t raw; JSON, CSV with -t raw too; SQLITE
the database; PostgreSQL when PGCONN is given.  Each output is parsed with
an ordinary reader (json, csv, sqlite3, psql --csv) and turned into one
canonical line per event: time, cpu, tid, pid, comm as bytes, event, and
each field as lket.out shows it (strings as bytes, hex fields 0x...,
integers in decimal).  Several hosts' lket.out (a host after the time):
each line with its host, which JSON, CSV and every database row must
have too; one trace's: the databases' host column is not compared.  The representations are those of lket-b2a(1),
VALUE REPRESENTATION.  Prints the first differences; exit 1 if any.
"""
import csv
import io
import json
import re
import sqlite3
import subprocess
import sys

NAMES = {}     # field names of each event, from lket.out
HOSTS = False  # lket.out of several hosts: a host after the time
FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')
TEXT_ESC = re.compile(rb'\\(x[0-9a-f]{2}|.)', re.S)


def text_bytes(s):
    """A string as lket.out writes it (no quotes) -> its bytes."""
    def one(m):
        e = m.group(1)
        if e.startswith(b'x') and len(e) == 3:
            return bytes([int(e[1:], 16)])
        return {b'n': b'\n', b't': b'\t'}.get(e, e)
    return TEXT_ESC.sub(one, s.encode('ascii'))


def esc_bytes(s):
    """A string as JSON, CSV and the databases hold it -> its bytes."""
    out, i = bytearray(), 0
    while i < len(s):
        c = s[i]
        if c != '\\':
            out += c.encode('utf-8')
            i += 1
            continue
        e = s[i + 1]
        if e == 'x':
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        else:
            out += {'n': b'\n', 't': b'\t'}.get(e, e.encode())
            i += 2
    return bytes(out)


def canon(time, host, cpu, tid, pid, comm, event, fields):
    def opt(v):
        return '-' if v is None or v in ('', '-') else str(int(v))
    return ' '.join([str(int(time)), str(host) if HOSTS else '-',
                     opt(cpu), opt(tid), opt(pid),
                     repr(comm), event] +
                    ['%s=%s' % (n, repr(v) if isinstance(v, bytes) else v)
                     for n, v in fields])


def from_text(path):
    events, kinds = [], {}
    for line in open(path, encoding='ascii'):
        line = line.rstrip('\n')
        host = None
        if HOSTS:
            t, host, line = line.split(' ', 2)
            line = t + ' ' + line
        t, cpu, tid, pid, comm, event, *rest = line.split(' ', 6)
        fields = []
        for n, v in FIELD.findall(rest[0] if rest else ''):
            if v.startswith('"'):
                fields.append((n, text_bytes(v[1:-1])))
            else:
                fields.append((n, v))
        comm = None if comm == '-' else text_bytes(comm)
        events.append(canon(t, host, cpu, tid, None if pid == '-' else pid,
                            comm, event, fields))
        kinds[event] = [isinstance(v, bytes) for _, v in fields]
        NAMES[event] = [n for n, _ in fields]
    return events, kinds


def from_json(path, kinds):
    events = []
    for line in open(path, encoding='utf-8'):
        o = dict(json.loads(line, object_pairs_hook=list))
        fields = []
        for (n, v), string in zip(o['fields'], kinds.get(o['event'], []) +
                                  [False] * len(o['fields'])):
            if string:
                v = esc_bytes(v)
            elif isinstance(v, str) and not v.startswith('0x'):
                v = str(int(v))     # an integer past 2^53
            fields.append((n, v if isinstance(v, (bytes, str)) else str(v)))
        if 'raw' in o:
            fields.append(('raw', o['raw']))
        if o['event'] in ('lket.lost', 'lket.dropped'):
            fields = [(n, v) for n, v in fields if n != 'until_ts']
        comm = None if o['comm'] is None else esc_bytes(o['comm'])
        ts = o['ts']
        events.append(canon(ts, o.get('host'), o['cpu'], o['tid'],
                            o['pid'], comm, o['event'], fields))
    return events


def csv_value(cell):
    """A cell as CSV holds text: a leading ' is lket-b2a's, not the value's."""
    return cell[1:] if cell.startswith("'") else cell


def from_csv(path):
    events = []
    with open(path, encoding='utf-8', newline='') as f:
        rows = csv.reader(f)
        header = next(rows)
        for row in rows:
            if len(row) != len(header):
                raise SystemExit('CSV: %d cells under a %d-cell header: %r'
                                 % (len(row), len(header), row))
            host = row.pop(1) if header[1] == 'host' else None
            t, cpu, tid, pid, comm, event, cell = row
            fields = []
            for n, v in FIELD.findall(csv_value(cell)):
                fields.append((n, esc_bytes(v[1:-1]) if v.startswith('"')
                               else v))
            comm = esc_bytes(csv_value(comm)) if comm else None
            events.append(canon(t, host, cpu, tid, pid, comm, event,
                                fields))
    return events


class SQLite:
    def __init__(self, path):
        self.db = sqlite3.connect(path)

    def rows(self, sql):
        return list(self.db.execute(sql))


class PG:
    def __init__(self, conn, schema, psql):
        self.conn, self.schema, self.psql = conn, schema, psql

    def rows(self, sql):
        # \N can't be in a stored string: its backslash would be doubled
        out = subprocess.run([self.psql, self.conn, '-XAq', '--csv',
                              '-P', 'null=\\N', '-P', 'tuples_only=on',
                              '-c', 'SET search_path TO "%s"; %s'
                              % (self.schema, sql)],
                             check=True, capture_output=True,
                             text=True, encoding='utf-8').stdout
        rows = []
        for r in csv.reader(io.StringIO(out)):
            rows.append(tuple(None if v == '\\N' else v for v in r))
        return rows


def rawhex(v):
    """raw: bytes from sqlite3, \\x... text from psql"""
    if v is None or isinstance(v, bytes):
        return None if v is None else v.hex()
    return v[2:] if v.startswith('\\x') else v


def from_db(db, kinds):
    events = []
    names = [r[0] for r in db.rows(
        "SELECT DISTINCT event FROM events "
        "WHERE event NOT IN ('lket.lost', 'lket.dropped')")]
    views = {r[0] for r in db.rows(
        "SELECT name FROM sqlite_master WHERE type = 'view'")} \
        if isinstance(db, SQLite) else {r[0] for r in db.rows(
            "SELECT table_name FROM information_schema.views "
            "WHERE table_schema = current_schema()")}
    tabs = {r[0] for r in db.rows(
        "SELECT name FROM sqlite_master WHERE type = 'table'")} \
        if isinstance(db, SQLite) else {r[0] for r in db.rows(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() "
            "AND table_type = 'BASE TABLE'")}
    for name in names:
        if name == 'unknown' or name not in kinds:
            continue
        table = re.sub(r'[^a-z0-9_]', '_', name.lower())
        if table not in tabs:
            continue
        src = table + '_hex' if table + '_hex' in views else table
        for r in db.rows('SELECT * FROM "%s"' % src):
            host, t, cpu, tid, pid, comm = r[:6]
            vals, raw = r[6:-1], rawhex(r[-1])
            fields = []
            for k, v in zip(kinds[name], vals):
                fields.append(esc_bytes(v) if k else
                              v if str(v).startswith('0x') else str(v))
            events.append((t, host, cpu, tid, pid,
                           None if comm is None else esc_bytes(comm),
                           name, fields, raw))
    for t, host, cpu, tid, pid, comm, grp, hook, nm, raw in db.rows(
            'SELECT time, host, cpu, tid, pid, comm, grp, hook, name, raw '
            'FROM unknown_events'):
        events.append((t, host, cpu, tid, pid,
                       None if comm is None else esc_bytes(comm),
                       '%s[%s:%s]' % (nm or 'unknown', grp, hook), [],
                       rawhex(raw)))
    # lost flushes, and records the tracer dropped (no flush numbers)
    lost = [canon(t, host, cpu, None, None, None,
                  'lket.lost' if f is not None else 'lket.dropped',
                  [('count', c)] +
                  ([('first_seq', f), ('last_seq', l)] if f is not None
                   else []) +
                  ([('until', u)] if u is not None else []))
            for t, host, u, c, f, l, cpu in db.rows(
                'SELECT time, host, until, count, first_seq, last_seq, cpu '
                'FROM lost')]
    return events, lost


def named(events_db):
    """Field names from lket.out (databases rename columns): positional."""
    out = []
    for t, host, cpu, tid, pid, comm, event, vals, raw in events_db:
        fields = list(zip(NAMES.get(event, []), vals))
        if raw is not None:
            fields.append(('raw', raw))
        out.append(canon(t, host, cpu, tid, pid, comm, event, fields))
    return out


def compare(what, want, got):
    want, got = sorted(want), sorted(got)
    if want == got:
        print('ok   roundtrip %s: %d events equal lket.out' % (what, len(want)))
        return True
    print('FAIL roundtrip %s:' % what)
    a, b = set(want), set(got)
    for line in sorted(a - b)[:5]:
        print('  lket.out: ' + line)
    for line in sorted(b - a)[:5]:
        print('  %s: %s' % (what, line))
    if a == b:
        print('  (the same events, counted differently)')
    return False


def main():
    global HOSTS
    out, js, cs, db = sys.argv[1:5]
    # the CSV's header says whether the outputs have hosts
    with open(cs, encoding='utf-8') as f:
        HOSTS = f.readline().startswith('time,host,')
    text, kinds = from_text(out)
    ok = compare('JSON', text, from_json(js, kinds))
    ok &= compare('CSV', text, from_csv(cs))
    dbs = [('SQLite', SQLite(db))]
    if len(sys.argv) > 5:
        dbs.append(('PostgreSQL', PG(*sys.argv[5:8])))
    for what, d in dbs:
        ev, lost = from_db(d, kinds)
        ok &= compare(what, text, named(ev) + lost)
    sys.exit(0 if ok else 1)


main()
