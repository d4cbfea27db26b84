#!/usr/bin/env python3
"""Prints a gettext catalog (po/<lang>.po) as JSON, for clients that share lifelog's catalogs
(the phone web app): {"language": "pl", "pluralForms": "<the Plural-Forms header>",
"messages": {"<msgid>" or "<msgctxt>\\u0004<msgid>": ["<form 0>", ...]}}.

Placeholders are kept as they are: {name} is filled in by the caller, %d in a plural message is
the count; the plural form to use is the header's C expression evaluated for the count
(docs/architecture.md, "Languages").

    scripts/catalog-json.py po/pl.po > pl.json
"""
import json
import re
import sys


def unquote(text):
    return json.loads(text) if text.startswith('"') else text


def parse(path):
    entries, entry, key = [], {}, None
    with open(path, encoding="utf-8") as po:
        for line in po:
            line = line.strip()
            if not line or line.startswith("#"):
                if entry:
                    entries.append(entry)
                    entry, key = {}, None
                continue
            match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
            if match:
                key = match.group(1)
                if key == "msgctxt" and "msgid" in entry:
                    entries.append(entry)
                    entry = {}
                entry[key] = unquote(match.group(2))
            elif line.startswith('"') and key:
                entry[key] += unquote(line)
    if entry:
        entries.append(entry)
    return entries


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/catalog-json.py po/<lang>.po")
    entries = parse(sys.argv[1])
    header = next((e.get("msgstr", "") for e in entries if e.get("msgid") == ""), "")
    plural = re.search(r"^Plural-Forms:\s*(.*)$", header, re.M)
    language = re.search(r"^Language:\s*(.*)$", header, re.M)
    messages = {}
    for e in entries:
        if not e.get("msgid"):
            continue
        key = (e["msgctxt"] + "\u0004" if "msgctxt" in e else "") + e["msgid"]
        forms = [e[k] for k in sorted(k for k in e if k.startswith("msgstr"))]
        messages[key] = forms
    json.dump({"language": language.group(1).strip() if language else "",
               "pluralForms": plural.group(1).strip() if plural else "",
               "messages": messages}, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
    sys.stdout.write("\n")


main()
