"""The type stubs (magus/_magus.pyi) say what the module has: the same names, and for each
function and method the same parameters in the same order with the same defaults; every
function has a docstring at run time too. (mypy's stubtest agrees: `python -m mypy.stubtest
magus`.)"""

import ast
import inspect
from pathlib import Path

import magus

STUB = Path(__file__).resolve().parent.parent / "magus" / "_magus.pyi"
TREE = ast.parse(STUB.read_text())


def stub_only(node):
    """Types that exist for type checkers only (TypedDicts)."""
    if isinstance(node, ast.Assign):
        return isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "TypedDict"
    return isinstance(node, ast.ClassDef) and any(
        getattr(b, "id", "") == "TypedDict" for b in node.bases)


def names():
    found = set()
    for node in TREE.body:
        if stub_only(node):
            continue
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            found.add(node.target.id)
        elif isinstance(node, ast.Assign):
            found.update(t.id for t in node.targets)
    return found - {"__all__"}


def parameters(function):
    """(name, default) of a stub's def; a default of `...` is None, as nothing to compare."""
    args = function.args
    plain = args.posonlyargs + args.args
    defaults = [None] * (len(plain) - len(args.defaults)) + list(args.defaults)
    out = [(a.arg, d) for a, d in zip(plain, defaults)]
    out += list(zip((a.arg for a in args.kwonlyargs), args.kw_defaults))
    return [(n, None if d is None else ast.literal_eval(d)) for n, d in out if n != "self"]


def runtime(callable_):
    out = []
    for p in inspect.signature(callable_).parameters.values():
        if p.name == "self":
            continue
        out.append((p.name, None if p.default is inspect.Parameter.empty else p.default))
    return out


def test_the_stub_names_what_the_module_has():
    assert names() == set(magus._magus.__all__)
    assert set(magus._magus.__all__) <= set(dir(magus))


def test_every_function_has_the_stubs_signature_and_a_docstring():
    checked = 0
    for node in TREE.body:
        if isinstance(node, ast.FunctionDef):
            real = getattr(magus, node.name)
            assert runtime(real) == parameters(node), node.name
            assert real.__doc__ and len(real.__doc__) > 20, node.name
            checked += 1
    assert checked >= 25


def test_the_classes_have_the_stubs_methods_and_fields():
    classes = {n.name: n for n in TREE.body if isinstance(n, ast.ClassDef) and not stub_only(n)}
    engine = classes["Engine"]
    for node in engine.body:
        if isinstance(node, ast.FunctionDef) and node.name not in ("threads", "hash"):
            if node.name == "__new__":
                assert runtime(magus.Engine) == parameters(node)[1:]
            else:
                assert runtime(getattr(magus.Engine, node.name)) == parameters(node), node.name
    fields = {n.target.id for n in classes["SearchResult"].body if isinstance(n, ast.AnnAssign)}
    found = magus.Engine(hash=1).search("chess", "startpos", depth=1)
    assert fields == {f for f in dir(found) if not f.startswith("_")}
