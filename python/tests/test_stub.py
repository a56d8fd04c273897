"""The stub cannot drift: python/fairmines/_native.pyi against the built module, object by object.

(The report classes of ``verify_history`` and ``audit`` are Python, in fairmines/_reports.py: typed by
their own annotations, they have no stub.)

The stub is written by hand for its types; everything else in it must be the module's own: the names, the
docstring of every public function, class, method and property (the Rust doc comments), and the
signature of every function, method and constructor (pyo3's ``__text_signature__``: names, kinds,
defaults). A change to one side only fails here, naming the object.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from typing import Any

import pytest

import fairmines
from conftest import REPO_ROOT

native = fairmines._native
STUB = ast.parse((REPO_ROOT / "python" / "fairmines" / "_native.pyi").read_text(encoding="utf-8"))


def entries(body: list[ast.stmt], prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], ast.FunctionDef | ast.ClassDef]]:
    """Every function, class, method and property of the stub, with its path (``("Round", "reveal")``)."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield (*prefix, node.name), node
            if isinstance(node, ast.ClassDef):
                yield from entries(node.body, (*prefix, node.name))


STUBBED = dict(entries(STUB.body))


def runtime(path: tuple[str, ...]) -> Any:
    obj: Any = native
    for part in path:
        obj = getattr(obj, part)
    return obj


def public(path: tuple[str, ...]) -> bool:
    return not path[-1].startswith("_")


def decorators(node: ast.FunctionDef | ast.ClassDef) -> set[str]:
    return {d.id for d in node.decorator_list if isinstance(d, ast.Name)}


def test_the_names_are_the_modules() -> None:
    top = {path[0] for path in STUBBED if public(path[:1])} | {"__version__"}
    listed = next(
        ast.literal_eval(node.value)
        for node in STUB.body
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    )
    assert set(listed) == top == set(native.__all__)
    assert len(native.__all__) == len(set(native.__all__))
    private = [path[0] for path in STUBBED if len(path) == 1 and not public(path)]  # the reports' state
    for name in [*native.__all__, *private]:
        cls = getattr(native, name)
        if not isinstance(cls, type):
            continue
        members = {attr for attr in vars(cls) if not attr.startswith("_")}
        if issubclass(cls, native.FairminesError) and cls is not native.FairminesError:
            members -= {"code", "argument"}  # each kind's own values of FairminesError's attributes
        stubbed = {path[1] for path in STUBBED if len(path) == 2 and path[0] == name and public(path)}
        stubbed |= {  # attributes (FairminesError.code, .argument)
            node.target.id
            for node in STUBBED[(name,)].body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and public((node.target.id,))
        }
        assert stubbed == members, name
        if not issubclass(cls, Exception):
            constructible = getattr(cls, "__text_signature__", None) is not None
            assert ((name, "__new__") in STUBBED) == constructible, name
        else:
            bases = [b.id for b in STUBBED[(name,)].bases if isinstance(b, ast.Name)]  # type: ignore[union-attr]
            assert bases == [b.__name__ for b in cls.__bases__], name


@pytest.mark.parametrize("path", [p for p in STUBBED if public(p)], ids=".".join)
def test_docstrings_are_the_modules(path: tuple[str, ...]) -> None:
    node = STUBBED[path]
    assert ast.get_docstring(node) == inspect.getdoc(runtime(path)), (
        f"the stub's docstring of {'.'.join(path)} is not the module's (bindings/python/src): copy it over"
    )


def parameters_of_stub(node: ast.FunctionDef) -> list[tuple[str, str, object]]:
    """(name, kind, default) of every parameter, without self/cls."""
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    defaults: list[object] = [inspect.Parameter.empty] * (len(positional) - len(a.defaults))
    defaults += [ast.literal_eval(d) for d in a.defaults]
    out = [
        (arg.arg, "POSITIONAL_ONLY" if i < len(a.posonlyargs) else "POSITIONAL_OR_KEYWORD", default)
        for i, (arg, default) in enumerate(zip(positional, defaults))
    ]
    out += [
        (arg.arg, "KEYWORD_ONLY", inspect.Parameter.empty if d is None else ast.literal_eval(d))
        for arg, d in zip(a.kwonlyargs, a.kw_defaults)
    ]
    if "staticmethod" not in decorators(node) and out and out[0][0] in ("self", "cls"):
        out = out[1:]
    return out


def parameters_of(obj: Any, method: bool) -> list[tuple[str, str, object]]:
    params = list(inspect.signature(obj).parameters.values())
    if method:
        params = params[1:]  # self, positional-only in pyo3's signatures
    return [(p.name, p.kind.name, p.default) for p in params]


CALLABLES = [
    p for p, node in STUBBED.items() if isinstance(node, ast.FunctionDef) and "property" not in decorators(node) and public(p)
]


@pytest.mark.parametrize("path", CALLABLES, ids=".".join)
def test_signatures_are_the_modules(path: tuple[str, ...]) -> None:
    node = STUBBED[path]
    assert isinstance(node, ast.FunctionDef)
    method = len(path) == 2 and "staticmethod" not in decorators(node)
    obj = getattr(runtime(path[:-1]), path[-1]) if method else runtime(path)
    assert parameters_of_stub(node) == parameters_of(obj, method), ".".join(path)


@pytest.mark.parametrize("name", [p[0] for p in STUBBED if len(p) == 2 and p[1] == "__new__"])
def test_constructors_are_the_modules(name: str) -> None:
    node = STUBBED[(name, "__new__")]
    assert isinstance(node, ast.FunctionDef)
    assert parameters_of_stub(node) == parameters_of(getattr(native, name), False), name
