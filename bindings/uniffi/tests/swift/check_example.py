"""Checks the README's Swift example without a Swift compiler (none runs on this machine or CI).

    python check_example.py EXAMPLE.swift GENERATED_DIR/Fairmines.swift [GENERATED_DIR/fairminesFFI.h LIBRARY]

With the header and the library, it first checks that the functions the header declares are exactly those the library
exports (`nm -D`), except the checksums UniFFI exports for a record's methods, which the bindings never declare.

It parses the example with tree-sitter-swift (pinned in requirements.txt) and fails on any syntax error; then it
checks the example against the generated binding, parsed the same way: every function or initializer it calls is
declared there and accepts the argument labels of the call (defaulted parameters may be left out), every member it
names after a dot (`.commitment`, `.fromParts`, `.ok`) is declared there, and every `catch FairminesError.X(...)`
names a case of the error enum with as many patterns as the case has values. Calls to Swift's own `print` are the
only names not looked up. Types, overloads, optionals and `try` are not checked: that needs swiftc.
"""

import re
import subprocess
import sys

import tree_sitter
import tree_sitter_swift

SWIFT_OWN = {"print"}
PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_swift.language()))


def walk(node):
    yield node
    for child in node.children:
        yield from walk(child)


def text(src, node):
    return src[node.start_byte : node.end_byte].decode().strip("`")


def declarations(src):
    """Functions and initializers with their parameters [label, defaulted], enum cases with their value counts,
    and every declared name (functions, properties, cases, types)."""
    tree = PARSER.parse(src)
    functions, cases, names = {}, {}, set()
    for node in walk(tree.root_node):
        if node.type in ("function_declaration", "init_declaration", "protocol_function_declaration"):
            name = "init" if node.type == "init_declaration" else text(src, node.child_by_field_name("name"))
            params = []
            for i, child in enumerate(node.children):
                if child.type == "parameter":
                    external = child.child_by_field_name("external_name")
                    params.append([text(src, external or child.child_by_field_name("name")), False])
                elif node.field_name_for_child(i) == "default_value" and params:
                    params[-1][1] = True
            functions.setdefault(name, []).append(params)
            names.add(name)
        elif node.type == "property_declaration":
            pattern = node.child_by_field_name("name")
            bound = pattern and pattern.child_by_field_name("bound_identifier")
            if bound:
                names.add(text(src, bound))
        elif node.type == "enum_entry":
            name = text(src, node.child_by_field_name("name"))
            values = node.child_by_field_name("data_contents")
            cases[name] = sum(1 for c in values.children if c.type == ",") + 1 if values else 0
            names.add(name)
        elif node.type in ("class_declaration", "protocol_declaration"):
            names.add(text(src, node.child_by_field_name("name")))
    return functions, cases, names


def accepts(params, labels):
    at = 0
    for label, defaulted in params:
        wanted = None if label == "_" else label
        if at < len(labels) and labels[at] == wanted:
            at += 1
        elif not defaulted:
            return False
    return at == len(labels)


def check(example_path, generated_path):
    src = open(example_path, "rb").read()
    tree = PARSER.parse(src)
    problems = []
    for node in walk(tree.root_node):
        if node.type == "ERROR" or node.is_missing:
            problems.append(f"line {node.start_point.row + 1}: syntax error at {text(src, node)[:40]!r}")
    functions, cases, names = declarations(open(generated_path, "rb").read())
    calls = 0
    for node in walk(tree.root_node):
        line = node.start_point.row + 1
        if node.type == "call_expression":
            callee = node.children[0]
            if callee.type == "navigation_expression":
                callee = callee.child_by_field_name("suffix").child_by_field_name("suffix")
            if callee is None or callee.type != "simple_identifier":
                problems.append(f"line {line}: a call this check does not understand: {text(src, node)[:60]!r}")
                continue
            name = text(src, callee)
            if name in SWIFT_OWN:
                continue
            if name not in functions and name in names:
                name = "init"  # a type called as an initializer, e.g. SeedPair(clientSeed:)
            labels = []
            arguments = node.children[1].child_by_field_name("value_arguments") or next(
                (c for c in node.children[1].children if c.type == "value_arguments"), None
            )
            for argument in arguments.children if arguments else []:
                if argument.type == "value_argument":
                    label = argument.child_by_field_name("name")
                    labels.append(text(src, label) if label else None)
            overloads = functions.get(name)
            calls += 1
            if overloads is None:
                problems.append(f"line {line}: {name}(…) is not declared in the generated binding")
            elif not any(accepts(params, labels) for params in overloads):
                wanted = " or ".join("(" + ", ".join(f"{p[0]}:" for p in params) + ")" for params in overloads)
                got = "(" + ", ".join(f"{label or '_'}:" for label in labels) + ")"
                problems.append(f"line {line}: {name}{got} does not match the declaration {name}{wanted}")
        elif node.type == "navigation_suffix":
            name = text(src, node.child_by_field_name("suffix"))
            if name not in names:
                problems.append(f"line {line}: .{name} is not declared in the generated binding")
        elif node.type == "catch_block":
            pattern = node.child_by_field_name("error")
            parts = [c for c in pattern.children] if pattern else []
            if len(parts) >= 3 and text(src, parts[0]) == "FairminesError":
                case = text(src, parts[2])
                bound = sum(1 for c in parts if c.type == "pattern")
                if case not in cases:
                    problems.append(f"line {line}: FairminesError.{case} is not a case of the error enum")
                elif bound != cases[case]:
                    problems.append(f"line {line}: FairminesError.{case} has {cases[case]} values, the pattern binds {bound}")
    if calls == 0:
        problems.append("no call of the binding found: is this the example?")
    for problem in problems:
        print(f"{example_path}: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"{example_path}: parses as Swift; its {calls} calls of the binding, their labels and members match {generated_path}")
    return 0


def check_exports(header, library):
    name = r"(?:uniffi|ffi)_fairmines_uniffi_\w+"
    with open(header, encoding="utf-8") as f:
        declared = set(re.findall(rf"\b({name})\(", f.read()))
    nm = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True, check=True).stdout
    exported = {line.split()[-1] for line in nm.splitlines() if re.fullmatch(name, line.split()[-1])}
    unchecked = {s for s in exported - declared if "_checksum_method_" in s and s.replace("_checksum_method_", "_fn_method_") in declared}
    problems = [f"{library} exports {s}, which {header} does not declare" for s in sorted(exported - declared - unchecked)]
    problems += [f"{header} declares {s}, which {library} does not export" for s in sorted(declared - exported)]
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"header: {len(declared)} functions declared, all exported; {len(unchecked)} record-method checksums unused")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit((len(sys.argv) > 3 and check_exports(*sys.argv[3:5])) or check(*sys.argv[1:3]))
