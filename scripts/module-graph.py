#!/usr/bin/env python3
"""The module graph of docs/architecture.md, generated so the doc cannot drift from the code.

    scripts/module-graph.py print            the generated blocks, to standard output
    scripts/module-graph.py check [DOC]      exit 1 (and show the difference) when DOC's blocks
                                             differ from what the code says; `make lint` runs it
    scripts/module-graph.py write [DOC]      rewrite DOC's blocks in place

DOC defaults to docs/architecture.md. Two blocks, each between a `<!-- BEGIN GENERATED: NAME -->`
and an `<!-- END GENERATED: NAME -->` line:
  graph    every target and what it depends on, from `swift package dump-package` (Package.swift,
           read offline; LIFELOG_FUZZ unset, so the fuzz targets are left out as in a normal build)
  imports  what each folder of Swift code may import, from scripts/module-imports.txt (the list
           scripts/check-imports.sh enforces)
Options: --package-json FILE reads the dump from FILE instead of running swift;
--imports FILE reads another import list. Tests/LifelogEndToEndTests/ModuleGraphDocTests.swift
proves the check fails on a drifted doc.
"""

import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCKS = ("graph", "imports")


def usage(message):
    sys.stderr.write("module-graph: %s\n" % message)
    sys.stderr.write("usage: scripts/module-graph.py print|check|write [DOC] "
                     "[--package-json FILE] [--imports FILE]\n")
    sys.exit(2)


def package_dump(path):
    if path:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    env = dict(os.environ)
    env.pop("LIFELOG_FUZZ", None)
    swift = env.get("SWIFT", "swift")
    # A scratch folder of its own, so the check never waits on the lock of a build running in .build.
    with tempfile.TemporaryDirectory(prefix="module-graph") as scratch:
        result = subprocess.run([swift, "package", "--package-path", ROOT, "--scratch-path",
                                 scratch, "dump-package"],
                                env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        usage("`swift package dump-package` failed")
    return json.loads(result.stdout)


def kind(target):
    """What a target is, in the doc's words."""
    if target["type"] == "system":
        return "system library"
    if target["type"] == "executable":
        return "executable"
    if target["type"] == "test":
        return "tests"
    if re.match(r"C[A-Z]", target["name"]):
        return "C shim"
    if target["name"].endswith("TestSupport") or target["name"] == "LifelogLoopback":
        return "test support"
    return "library"


def dependencies(target):
    names = []
    for dependency in target["dependencies"]:
        for value in dependency.values():
            if isinstance(value, list) and value and isinstance(value[0], str):
                names.append(value[0])
    return names


def graph_block(dump):
    """One line per target, the ones that depend on most first; an arrow is "depends on"."""
    targets = {target["name"]: target for target in dump["targets"]}
    depth = {}

    def height(name):
        if name not in depth:
            depth[name] = 1 + max((height(d) for d in dependencies(targets[name])
                                   if d in targets), default=-1)
        return depth[name]

    sections = [("Libraries and executables", ("executable", "library")),
                ("C shims and system libraries (each C shim loads its library with dlopen)",
                 ("C shim", "system library")),
                ("Test support and tests", ("test support", "tests"))]
    lines = []
    for title, kinds in sections:
        chosen = [t for t in dump["targets"] if kind(t) in kinds]
        chosen.sort(key=lambda t: (-height(t["name"]), t["name"].lower()))
        if not chosen:
            continue
        if lines:
            lines.append("")
        lines.append("# " + title)
        labels = ["%s (%s)" % (t["name"], kind(t)) for t in chosen]
        width = max(len(label) for label in labels)
        for label, target in zip(labels, chosen):
            needs = dependencies(target)
            right = ", ".join(needs) if needs else "(nothing of ours)"
            lines.append("%s -> %s" % (label.ljust(width), right))
    return ["```"] + lines + ["```"]


def imports_block(path):
    """A list of the folders of Swift code and what each may import."""
    rows = []
    with open(path, encoding="utf-8") as file:
        for raw in file:
            line = raw.strip()
            if not line or line.startswith("#") or ":" not in line:
                continue
            folder, modules = line.split(":", 1)
            rows.append("- `%s`: %s" % (folder.strip(),
                                         ", ".join(modules.split())))
    return rows


def generated(dump_path, imports_path):
    return {"graph": graph_block(package_dump(dump_path)),
            "imports": imports_block(imports_path)}


def begin(name):
    return "<!-- BEGIN GENERATED: %s (scripts/module-graph.py write) -->" % name


def end(name):
    return "<!-- END GENERATED: %s -->" % name


def replace_blocks(text, blocks):
    """The doc with each block's lines replaced; an error when a marker is missing or twice."""
    lines = text.split("\n")
    for name in BLOCKS:
        starts = [i for i, line in enumerate(lines) if line == begin(name)]
        ends = [i for i, line in enumerate(lines) if line == end(name)]
        if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
            raise ValueError("the doc needs one `%s` line and, after it, one `%s` line"
                             % (begin(name), end(name)))
        lines[starts[0] + 1:ends[0]] = blocks[name]
    return "\n".join(lines)


def main(arguments):
    options = {"--package-json": None, "--imports": os.path.join(ROOT, "scripts",
                                                                  "module-imports.txt")}
    positional = []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument in options:
            if index + 1 >= len(arguments):
                usage("%s needs a value" % argument)
            options[argument] = arguments[index + 1]
            index += 2
            continue
        positional.append(argument)
        index += 1
    if not positional or positional[0] not in ("print", "check", "write") or len(positional) > 2:
        usage("say print, check or write")
    action = positional[0]
    doc = positional[1] if len(positional) == 2 else os.path.join(ROOT, "docs",
                                                                  "architecture.md")
    blocks = generated(options["--package-json"], options["--imports"])
    if action == "print":
        for name in BLOCKS:
            print("\n".join([begin(name)] + blocks[name] + [end(name)]))
        return 0
    with open(doc, encoding="utf-8") as file:
        text = file.read()
    try:
        wanted = replace_blocks(text, blocks)
    except ValueError as error:
        sys.stderr.write("module-graph: %s: %s\n" % (doc, error))
        return 1
    if action == "write":
        if wanted != text:
            with open(doc, "w", encoding="utf-8") as file:
                file.write(wanted)
        return 0
    if wanted == text:
        return 0
    diff = difflib.unified_diff(text.split("\n"), wanted.split("\n"), doc, "generated",
                                lineterm="")
    print("\n".join(diff))
    sys.stderr.write("module-graph: %s differs from Package.swift and scripts/module-imports.txt;"
                     " run scripts/module-graph.py write and review the diff\n" % doc)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
