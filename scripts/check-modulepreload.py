#!/usr/bin/env python3
"""The web app's `<link rel="modulepreload">` list is every module the page loads.

    scripts/check-modulepreload.py [WEB]     exit 1, naming each difference, when a page's list
                                             misses a module its script imports (directly or
                                             not) or names a file that is not there

WEB defaults to Web/. Each HTML page there that has a modulepreload list is checked against the
modules its `<script type="module" src>` imports: relative `import … from`, `export … from`,
bare `import '…'` and literal `import('…')`. A module left off the list is fetched only once the
module importing it has arrived (one round trip more per level, docs/web.md "Speed"); a listed
file that is missing is a 404 on every load. `make lint` runs it;
Tests/LifelogEndToEndTests/ModulePreloadTests.swift proves it fails on either drift.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRELOAD = re.compile(r'<link\s+rel="modulepreload"\s+href="([^"]+)"\s*/?>')
SCRIPT = re.compile(r'<script\s+type="module"\s+src="([^"]+)"')
IMPORTS = [
    re.compile(r'\b(?:import|export)\s[^;]*?\bfrom\s*[\'"](\.{1,2}/[^\'"]+)[\'"]', re.S),
    re.compile(r'\bimport\s*[\'"](\.{1,2}/[^\'"]+)[\'"]'),
    re.compile(r'\bimport\(\s*[\'"](\.{1,2}/[^\'"]+)[\'"]\s*\)'),
]
COMMENT = re.compile(r'/\*.*?\*/|^\s*//[^\n]*', re.S | re.M)


def served(web, url):
    """The file behind a page's absolute URL path (`/core/x.js` -> WEB/core/x.js)."""
    return os.path.normpath(os.path.join(web, url.lstrip("/")))


def imported(web, entry):
    """Every module `entry` imports, directly or not, as absolute URL paths."""
    seen = set()
    pending = [entry]
    while pending:
        path = pending.pop()
        try:
            with open(path, encoding="utf-8") as handle:
                text = COMMENT.sub("", handle.read())
        except OSError as error:
            raise SystemExit(f"modulepreload: cannot read {os.path.relpath(path, ROOT)}: {error}")
        for pattern in IMPORTS:
            for target in pattern.findall(text):
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
                url = "/" + os.path.relpath(resolved, web).replace(os.sep, "/")
                if url not in seen:
                    seen.add(url)
                    pending.append(resolved)
    return seen


def check(web):
    problems = []
    for name in sorted(os.listdir(web)):
        if not name.endswith(".html"):
            continue
        with open(os.path.join(web, name), encoding="utf-8") as handle:
            page = handle.read()
        listed = PRELOAD.findall(page)
        if not listed:
            continue
        needed = set()
        for script in SCRIPT.findall(page):
            needed |= imported(web, served(web, script))
        for url in sorted(needed - set(listed)):
            problems.append(f"{name}: {url} is imported but not in the modulepreload list")
        for url in listed:
            if not os.path.isfile(served(web, url)):
                problems.append(f"{name}: the modulepreload list names {url}, which is not there")
    return problems


def main():
    web = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Web")
    problems = check(web)
    for problem in problems:
        print("modulepreload: " + problem, file=sys.stderr)
    if problems:
        print("modulepreload: make the list in the page match the modules it imports", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
