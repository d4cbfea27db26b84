#!/usr/bin/env python3
"""Names the pages a write put in a log's WAL: wal-pages.py LOG START_BYTE.

Reads the frame headers of LOG-wal from START_BYTE on (the WAL's size before the write; 0 for all)
and names each frame's page by the table or index it belongs to (SQLite's dbstat). Used to count
the pages one `lifelog add` writes (docs/benchmarks.md): run `stat -c %s LOG-wal`, the command,
then this script with that size.
"""
import sqlite3
import struct
import sys


def main():
    log, start = sys.argv[1], int(sys.argv[2])
    with open(log + "-wal", "rb") as wal_file:
        wal = wal_file.read()
    page_size = struct.unpack(">I", wal[8:12])[0]
    offset, pages = max(start, 32), []
    while offset + 24 + page_size <= len(wal):
        pages.append(struct.unpack(">I", wal[offset:offset + 4])[0])
        offset += 24 + page_size
    connection = sqlite3.connect("file:" + log + "?mode=ro", uri=True)
    names = {page: name for name, page in connection.execute("SELECT name, pageno FROM dbstat")}
    print(len(pages), "pages:", ", ".join("%d %s" % (p, names.get(p, "(free or new)")) for p in pages))


main()
