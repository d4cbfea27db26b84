"""Reads an iCalendar file with the `icalendar` library and prints what it found, for the tests
of `lifelog export --format ics` (Tests/LifelogEndToEndTests/CalendarExportTests.swift).

    python ics-dump.py FILE            one JSON object per VEVENT, in file order
    python ics-dump.py --count FILE    only {"events": N}, for large files

Exits 1 when the library reports a property it could not parse, a VEVENT lacks UID, DTSTAMP or
DTSTART, a DTSTART is not an aware date-time, or a line is longer than 75 octets or does not end
in CRLF: the file must be clean, not merely readable.
"""

import json
import sys

import icalendar


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def check_lines(data):
    lines = data.split(b"\r\n")
    if lines[-1] != b"":
        fail("the file does not end in CRLF")
    for number, line in enumerate(lines[:-1], 1):
        if b"\n" in line or b"\r" in line:
            fail(f"line {number} holds a bare line break")
        if len(line) > 75:
            fail(f"line {number} is {len(line)} octets long")
        line.decode("utf-8")  # a fold inside a UTF-8 sequence would break this


def event_json(event):
    for name in ("UID", "DTSTAMP", "DTSTART"):
        if name not in event:
            fail(f"a VEVENT has no {name}")
    start = event.decoded("DTSTART")
    if getattr(start, "tzinfo", None) is None or start.utcoffset() is None:
        fail(f"DTSTART of {event['UID']} is not an aware date-time: {start!r}")
    duration = event.decoded("DURATION") if "DURATION" in event else None
    categories = []
    if "CATEGORIES" in event:
        value = event["CATEGORIES"]
        for item in value if isinstance(value, list) else [value]:
            categories.extend(str(c) for c in item.cats)
    modified = event.decoded("LAST-MODIFIED") if "LAST-MODIFIED" in event else None
    return {
        "uid": str(event["UID"]),
        "start": start.isoformat(),
        "startUTC": int(start.timestamp()),
        "offsetMinutes": int(start.utcoffset().total_seconds() // 60),
        "duration": None if duration is None else int(duration.total_seconds()),
        "summary": str(event["SUMMARY"]),
        "categories": categories,
        "sequence": int(event.get("SEQUENCE", 0)),
        "lastModified": None if modified is None else int(modified.timestamp()),
        "dtstamp": int(event.decoded("DTSTAMP").timestamp()),
    }


def main(arguments):
    count_only = arguments[:1] == ["--count"]
    if count_only:
        arguments = arguments[1:]
    if len(arguments) != 1:
        fail(__doc__)
    with open(arguments[0], "rb") as file:
        data = file.read()
    check_lines(data)
    calendar = icalendar.Calendar.from_ical(data)
    for component in calendar.walk():
        for error in getattr(component, "errors", []):
            fail(f"{component.name}: {error}")
    events = calendar.walk("VEVENT")
    if count_only:
        for event in events:
            event_json(event)
        print(json.dumps({"events": len(events)}))
        return
    for event in events:
        print(json.dumps(event_json(event), ensure_ascii=False))


main(sys.argv[1:])
