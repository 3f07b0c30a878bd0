#!/usr/bin/env python3
"""Lists import cycles between source files of each crate (file A names an item of file B and B one of A).

A file's references are its `crate::`, `super::` and `self::` paths and the paths through its own child modules
(in `use` lines and inline), resolved to the module file they land in; a crate root's `pub use` re-exports resolve
to the file they come from (exported macros to the file that defines them). `mod` declarations are not references.

It also checks the order of core's capability folders that the README declares (the line starting "Capabilities, in
order:"): a folder may use the folders before it, never one after it, by import or through their stores
(`db.<capability>()`). Exits 1 when there is a cycle or an upward
import.
"""
import os
import re
import sys

CRATES = {"core": "core/src", "api": "api/src", "worker": "worker/src", "scheduler": "scheduler/src", "root": "src"}


def modules(root):
    """Module path (tuple) -> file, for every .rs under root."""
    found = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            parts = os.path.relpath(path, root)[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            found[tuple(parts)] = path
    return found


def strip_tests(text):
    """Drops `#[cfg(test)] mod tests { ... }` blocks: a test module is not part of the import graph."""
    match = re.search(r"#\[cfg\(test\)\]\s*mod \w+ \{", text)
    return text[: match.start()] if match else text


PATH = re.compile(r"\b(crate|super|self)((?:::\w+)+|::\{)")
GROUP = re.compile(r"\b(crate|super|self)((?:::\w+)*)::\{([^;]*?)\};", re.S)


def reexports(text, known):
    """Where a name at the crate root really lives: a root `pub use a::b::Item;` (Item -> (a, b)) or an exported
    macro (`crate::name!` -> the file that defines it)."""
    found = {}
    for path, group in re.findall(r"^pub use (?:crate::)?([\w:]+?)(?:::\{([^}]*)\})?;", text, re.M):
        if group:
            for name in group.split(","):
                found[name.strip()] = tuple(path.split("::"))
        else:
            found[path.split("::")[-1]] = tuple(path.split("::")[:-1])
    for module, path in known.items():
        with open(path, encoding="utf-8") as file:
            for name in re.findall(r"#\[macro_export\]\s*macro_rules! (\w+)", file.read()):
                found[name] = module
    return found


def references(module, text, known, exported):
    """The module files `text` (the file of `module`) refers to."""
    targets = set()
    children = set(re.findall(r"^\s*(?:pub(?:\(\w+\))? )?mod (\w+);", text, re.M))

    def resolve(anchor, rest):
        if anchor == "crate":
            base = ()
        elif anchor == "super":
            base = module[:-1]
        else:
            base = module
        parts = [part for part in rest.split("::") if part]
        while parts and parts[0] == "super":
            base, parts = base[:-1], parts[1:]
        if not base and parts and parts[0] in exported:
            parts = list(exported[parts[0]]) + parts[1:]
        candidate = base + tuple(parts)
        while candidate not in known and candidate:
            candidate = candidate[:-1]
        if candidate in known:
            targets.add(candidate)

    for anchor, prefix, group in GROUP.findall(text):
        for item in re.split(r",", group):
            item = item.strip().split(" as ")[0]
            item = re.sub(r"\{.*", "", item, flags=re.S)
            resolve(anchor, prefix + "::" + item.replace(" ", ""))
    for anchor, rest in PATH.findall(text):
        if rest != "::{":
            resolve(anchor, rest)
    for child, rest in re.findall(r"(?<![\w:])(\w+)((?:::\w+)+)", text):
        if child in children:
            resolve("self", "::" + child + rest)
    targets.discard(module)
    return targets


def cycles(graph):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(component)

    sys.setrecursionlimit(10000)
    for node in graph:
        if node not in index:
            visit(node)
    return out


def declared_order(readme="README.md"):
    """The capability folders of core, lowest first, as the README's Layout section declares them."""
    with open(readme, encoding="utf-8") as file:
        for line in file:
            if line.startswith("Capabilities, in order:"):
                return re.findall(r"`(\w+)`", line.split(":", 1)[1].split("(")[0])
    sys.exit("README.md declares no capability order (a line starting \"Capabilities, in order:\")")


def upward_imports(graph, known, order):
    """(importing file, imported file) pairs where a folder uses one declared after it."""
    rank = {folder: index for index, folder in enumerate(order)}
    found = []
    for module, targets in graph.items():
        for target in targets:
            if module and target and module[0] in rank and target[0] in rank and rank[target[0]] > rank[module[0]]:
                found.append((known[module], known[target]))
    return sorted(found)


def store_calls(module, text, order):
    """The capabilities whose store `text` calls (`db.sending()`, `self.ctx.db.campaigns()`, from a store
    `self.campaigns()`): a use like an import."""
    code = re.sub(r"//.*", "", text)
    # `self.campaigns()` is a store reaching another through `Db` (a store derefs to it).
    called = set(re.findall(r"(?:\bdb\(?\)?|\bself|\.0)\.(\w+)\(\)", code))
    return {name for name in called if name in order and name != module[0]}


def main():
    found = False
    order = declared_order()
    for crate, root in CRATES.items():
        known = modules(root)
        with open(known[()], encoding="utf-8") as file:
            exported = reexports(file.read(), known)
        graph = {}
        for module, path in known.items():
            with open(path, encoding="utf-8") as file:
                graph[module] = references(module, strip_tests(file.read()), known, exported)
        for component in cycles(graph):
            found = True
            print(f"{crate}: " + " <-> ".join(known[module] for module in sorted(component)))
        if crate == "core":
            missing = sorted({module[0] for module in known if module} - set(order) - {"testing"})
            if missing:
                found = True
                print(f"core: folders missing from the README's capability order: {', '.join(missing)}")
            for importing, imported in upward_imports(graph, known, order):
                found = True
                print(f"core: {importing} imports {imported}, a capability declared after it")
            rank = {folder: index for index, folder in enumerate(order)}
            for module, path in sorted(known.items()):
                if not module or module[0] not in rank:
                    continue
                with open(path, encoding="utf-8") as file:
                    called = store_calls(module, strip_tests(file.read()), order)
                for capability in sorted(called):
                    if rank[capability] > rank[module[0]]:
                        found = True
                        print(f"core: {path} calls db.{capability}(), a capability declared after it")
    if not found:
        print("no import cycles between files, and no capability folder imports one declared after it")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
