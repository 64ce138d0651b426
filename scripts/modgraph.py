#!/usr/bin/env python3
"""The module import graph of each crate, and its circles.

    scripts/modgraph.py crates/stratego-core [--edges]   # one crate's circles
    scripts/modgraph.py --check docs/architecture.md     # every crate's, against the doc

A node is a module (a file: src/a.rs and src/a/mod.rs are `a`, src/a/b.rs
is `a::b`). An edge A -> B is any `crate::` path in A that names B or an
item in it (in `use` lines and inline alike, an item re-exported by
lib.rs counted in its module), any `super::` path, and a parent's paths
into its children (`b::X`, `self::b`). Comments, doc links, macros'
`$crate::` paths (they expand in other crates) and `#[cfg(test)] mod
tests` are not counted. A circle is a strongly connected component of
more than one module.

`--check` finds the circles of every crate under crates/ and compares them
with the table of the doc's section "The circles left in the imports":
one row a circle, its crate and its modules in backquotes. A circle the
table does not explain, or a row whose circle is gone, fails. It also
checks the doc's table of crates (the one headed `| crate | path |`):
every package of the workspace has a row, and the workspace crates its
`[dependencies]` name (optional ones included) are exactly those in
backquotes in the row's last column ("none" for none).
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

ROOT = pathlib.Path(__file__).resolve().parent.parent
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text: str) -> str:
    """The code without its tests (kept at the end of a file here),
    comments and doc comments."""
    m = re.search(r"#\[cfg\(test\)\]\s*mod tests", text)
    if m:
        text = text[: m.start()]
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


class Crate:
    def __init__(self, src: pathlib.Path) -> None:
        self.files: Dict[str, pathlib.Path] = {}
        for path in sorted(src.rglob("*.rs")):
            parts = list(path.relative_to(src).with_suffix("").parts)
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts in (["lib"], ["main"]):
                continue
            if parts and parts[0] == "bin":
                continue
            self.files["::".join(parts)] = path
        self.reexport: Dict[str, str] = {}
        lib = src / "lib.rs"
        if lib.exists():
            text = strip(lib.read_text())
            for m in re.finditer(r"pub use\s+([a-z_][a-z0-9_:]*)::(\{[^}]*\}|" + IDENT + r")\s*;", text):
                if m.group(1) in self.files:
                    for name in re.findall(IDENT, m.group(2)):
                        self.reexport[name] = m.group(1)

    def resolve(self, segments: List[str]) -> Optional[str]:
        """The longest module prefix of the crate path `segments`, else the
        module that lib.rs re-exports its first name from."""
        best = None
        for i in range(1, len(segments) + 1):
            if "::".join(segments[:i]) in self.files:
                best = "::".join(segments[:i])
        if best is None and segments:
            best = self.reexport.get(segments[0])
        return best

    def edges(self) -> Dict[str, Set[str]]:
        out: Dict[str, Set[str]] = {m: set() for m in self.files}
        for mod, path in self.files.items():
            text = strip(path.read_text())
            targets: Set[Optional[str]] = set()
            for m in re.finditer(r"\buse\s+crate::\{([^;]*)\};", text, flags=re.S):
                for item in re.split(r",(?![^{]*\})", m.group(1)):
                    segments = re.findall(IDENT, item.split("{")[0])
                    if segments:
                        targets.add(self.resolve(segments))
            for m in re.finditer(r"(?<![$\w])crate((?:::" + IDENT + r")+)", text):
                targets.add(self.resolve(m.group(1).strip(":").split("::")))
            parent = mod.split("::")[:-1]
            for m in re.finditer(r"\bsuper((?:::" + IDENT + r")+|::\{)", text):
                segments = parent + [s for s in m.group(1).strip(":{").split("::") if s]
                targets.add(self.resolve(segments) or ("::".join(parent) or None))
            for child in self.files:
                if "::" in child and child.rsplit("::", 1)[0] == mod:
                    name = child.rsplit("::", 1)[1]
                    if re.search(r"(?<![:\w])(self::)?" + name + r"::", text):
                        targets.add(child)
            out[mod] |= {t for t in targets if t and t != mod}
        return out

    def circles(self) -> List[Tuple[List[str], Dict[str, Set[str]]]]:
        """The strongly connected components of more than one module,
        biggest first, each with its edges inside it (Tarjan's algorithm)."""
        edges = self.edges()
        index: Dict[str, int] = {}
        low: Dict[str, int] = {}
        stack: List[str] = []
        on: Set[str] = set()
        found: List[List[str]] = []

        def visit(v: str) -> None:
            index[v] = low[v] = len(index)
            stack.append(v)
            on.add(v)
            for w in sorted(edges[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

        sys.setrecursionlimit(10_000)
        for v in sorted(edges):
            if v not in index:
                visit(v)
        found.sort(key=lambda c: (-len(c), c))
        return [(c, {a: edges[a] & set(c) for a in c}) for c in found]


def documented(doc: pathlib.Path) -> Set[Tuple[str, FrozenSet[str]]]:
    """The circles of the doc's table: (crate, modules) a row."""
    text = doc.read_text()
    start = text.find("### The circles left in the imports")
    if start < 0:
        sys.exit(f"{doc}: no section \"The circles left in the imports\"")
    section = text[start:].split("\n## ", 1)[0]
    rows = set()
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or cells[0].startswith("-"):
            continue
        krate = re.findall(r"`([^`]+)`", cells[0])
        modules = re.findall(r"`([^`]+)`", cells[1])
        if krate and modules:
            rows.add((krate[0], frozenset(modules)))
    return rows


MANIFESTS = ["Cargo.toml", "crates/*/Cargo.toml", "python/Cargo.toml", "benches/Cargo.toml"]


def packages() -> Dict[str, Set[str]]:
    """Every package of the workspace with the workspace packages its
    `[dependencies]` section names."""
    sections: Dict[str, Dict[str, str]] = {}
    for pattern in MANIFESTS:
        for manifest in sorted(ROOT.glob(pattern)):
            text = manifest.read_text()
            package = re.search(r'^\[package\][^\[]*?^name\s*=\s*"([^"]+)"', text, flags=re.M | re.S)
            deps = re.search(r"^\[dependencies\]\n(.*?)(?=^\[|\Z)", text, flags=re.M | re.S)
            if package:
                sections[package.group(1)] = {"deps": deps.group(1) if deps else ""}
    names = set(sections)
    return {
        name: {d for d in re.findall(r"^([A-Za-z0-9_-]+)\s*=", sec["deps"], flags=re.M) if d in names}
        for name, sec in sections.items()
    }


def crate_table(doc: pathlib.Path) -> Dict[str, Set[str]]:
    """The doc's table of crates: each crate with the crates its row says
    it imports."""
    rows: Dict[str, Set[str]] = {}
    inside = False
    for line in doc.read_text().splitlines():
        if line.startswith("| crate | path |"):
            inside = True
            continue
        if inside and not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not inside or cells[0].startswith("-"):
            continue
        rows[re.findall(r"`([^`]+)`", cells[0])[0]] = set(re.findall(r"`([^`]+)`", cells[-1]))
    if not rows:
        sys.exit(f"{doc}: no table of crates (a header \"| crate | path |\")")
    return rows


def check_crates(doc: pathlib.Path) -> bool:
    """Whether the doc's table of crates names every package and exactly
    the workspace crates each imports; prints each difference."""
    actual = packages()
    table = crate_table(doc)
    ok = True
    for name in sorted(set(actual) - set(table)):
        print(f"{name}: a package of the workspace with no row in {doc.name}'s table of crates")
        ok = False
    for name in sorted(set(table) - set(actual)):
        print(f"{name}: a row of {doc.name}'s table of crates, but no package")
        ok = False
    for name in sorted(set(actual) & set(table)):
        allowed = table[name] & set(actual)
        for dep in sorted(actual[name] - allowed):
            print(f"{name} imports {dep}, which its row of {doc.name}'s table of crates does not name")
            ok = False
        for dep in sorted(allowed - actual[name]):
            print(f"{name}: its row of {doc.name}'s table of crates names {dep}, which it does not import")
            ok = False
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("crate", nargs="?", help="a crate's directory (crates/NAME)")
    parser.add_argument("--edges", action="store_true", help="print each circle's edges")
    parser.add_argument("--check", metavar="DOC", help="check every crate's circles against DOC's table")
    args = parser.parse_args()
    if args.check:
        found = set()
        for src in sorted(ROOT.glob("crates/*/src")):
            for circle, _ in Crate(src).circles():
                found.add((src.parent.name, frozenset(circle)))
        table = documented(ROOT / args.check)
        bad = False
        for krate, circle in sorted(found - table, key=lambda r: (r[0], sorted(r[1]))):
            print(f"{krate}: circle {' '.join(sorted(circle))} is not explained in {args.check}")
            bad = True
        for krate, circle in sorted(table - found, key=lambda r: (r[0], sorted(r[1]))):
            print(f"{krate}: {args.check} explains circle {' '.join(sorted(circle))}, which is gone")
            bad = True
        if not check_crates(ROOT / args.check):
            bad = True
        if bad:
            sys.exit(1)
        print(f"modgraph: the {len(packages())} packages import what {args.check}'s table of crates says")
        print(f"modgraph: the {len(found)} circles of {len(list(ROOT.glob('crates/*/src')))} crates are the ones {args.check} explains")
        return
    if not args.crate:
        parser.error("name a crate's directory, or --check DOC")
    crate = Crate(pathlib.Path(args.crate) / "src")
    circles = crate.circles()
    print(f"{args.crate}: {len(crate.files)} modules, {len(circles)} circles")
    for circle, inside in circles:
        print(f"  circle of {len(circle)}: {' '.join(circle)}")
        if args.edges:
            for a in circle:
                print(f"    {a} -> {', '.join(sorted(inside[a]))}")


if __name__ == "__main__":
    main()
