#!/usr/bin/env python3
"""Reads a workbook with openpyxl and prints what a test checks, as JSON.

    xlsx-dump.py FILE.xlsx

One object: {"sheets": [{"name", "freeze", "filter", "widths": {"A": 12.0, ...}, "rows": [[cell,
...], ...]}]}, a cell being null (empty) or {"type": the cell's data type ("s" string, "n"
number, "d" date), "date": whether its number format is a date or time, "value": the value
(a datetime or time in ISO 8601, a duration in seconds, a number, a string), "format": its
number format}. Used by SpreadsheetExportTests (Tests/LifelogEndToEndTests).
"""
import datetime
import json
import sys

import openpyxl


def value(cell):
    v = cell.value
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, datetime.timedelta):
        return v.total_seconds()
    return v


def main():
    book = openpyxl.load_workbook(sys.argv[1])
    sheets = []
    for sheet in book.worksheets:
        rows = []
        for row in sheet.iter_rows():
            rows.append([
                None if cell.value is None else {
                    "type": cell.data_type, "date": cell.is_date, "value": value(cell),
                    "format": cell.number_format,
                } for cell in row
            ])
        sheets.append({
            "name": sheet.title,
            "freeze": sheet.freeze_panes,
            "filter": sheet.auto_filter.ref,
            "widths": {key: dim.width for key, dim in sheet.column_dimensions.items()},
            "rows": rows,
        })
    json.dump({"sheets": sheets}, sys.stdout, ensure_ascii=False)


main()
