"""The type stub src/bitarcade/_core.pyi against the extension module bitarcade._core: every
public name, every class's methods and properties, and every parameter list agree."""

import ast
import pathlib

import pytest

from bitarcade import _core

STUB = pathlib.Path(__file__).resolve().parents[1] / "src" / "bitarcade" / "_core.pyi"

# What pyo3 (or `type`) puts on every class, not part of the API.
IGNORED = {"__module__", "__doc__", "__dict__", "__weakref__", "__qualname__", "__name__"}
CONSTRUCTORS = {"__init__", "__new__"}


def _tree() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"), filename=str(STUB))


def _decorators(fn: ast.FunctionDef) -> set:
    names = set()
    for d in fn.decorator_list:
        if isinstance(d, ast.Name):
            names.add(d.id)
        elif isinstance(d, ast.Attribute):
            names.add(d.attr)
    return names


def _top_level(tree: ast.Module) -> dict:
    """The stub's top-level definitions: name -> node (classes, functions, constants)."""
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = node
    return out


def _members(cls: ast.ClassDef) -> dict:
    """A stub class's members: name -> (kind, node), kind one of method, property, staticmethod,
    classmethod."""
    out = {}
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            decs = _decorators(node)
            if "setter" in decs or "deleter" in decs:
                continue
            kind = next((k for k in ("property", "staticmethod", "classmethod") if k in decs), "method")
            out[node.name] = (kind, node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = ("attribute", node)
    return out


def _public(name: str) -> bool:
    return not name.startswith("_") or name in CONSTRUCTORS


def _runtime_kind(value) -> str:
    if isinstance(value, staticmethod):
        return "staticmethod"
    if isinstance(value, classmethod) or type(value).__name__ == "classmethod_descriptor":
        return "classmethod"
    if type(value).__name__ in ("getset_descriptor", "member_descriptor") or isinstance(value, property):
        return "property"
    if callable(value):
        return "method"
    return "attribute"


def _stub_params(fn: ast.FunctionDef, bound: bool) -> list:
    a = fn.args
    names = [p.arg for p in a.posonlyargs + a.args]
    if bound and names and names[0] in ("self", "cls"):
        names = names[1:]
    if a.vararg:
        names.append(a.vararg.arg)
    names += [p.arg for p in a.kwonlyargs]
    if a.kwarg:
        names.append(a.kwarg.arg)
    return names


def _runtime_params(sig: str) -> list:
    """The parameter names of a __text_signature__ such as `($self, a, b="{}", *, c=None)`, without
    `$self`, `$cls`, `$type`, `/` and `*`."""
    fn = ast.parse(f"def f{sig.replace('$', '')}: pass").body[0]
    a = fn.args
    names = [p.arg for p in a.posonlyargs + a.args]
    if sig.lstrip("(").startswith("$"):
        names = names[1:]
    if a.vararg:
        names.append(a.vararg.arg)
    names += [p.arg for p in a.kwonlyargs]
    if a.kwarg:
        names.append(a.kwarg.arg)
    return names


TREE = _tree()
TOP = _top_level(TREE)
CLASSES = sorted(n for n, node in TOP.items() if isinstance(node, ast.ClassDef))
FUNCTIONS = sorted(n for n, node in TOP.items() if isinstance(node, ast.FunctionDef) and not n.startswith("_"))


def test_stub_parses_and_uses_future_annotations():
    first = [n for n in TREE.body if isinstance(n, ast.ImportFrom)]
    assert any(n.module == "__future__" and any(a.name == "annotations" for a in n.names) for n in first)


def test_every_runtime_name_is_in_the_stub():
    runtime = {n for n in dir(_core) if not n.startswith("_")}
    missing = sorted(runtime - set(TOP))
    assert not missing, f"in bitarcade._core but not in {STUB.name}: {missing}"


def test_every_stub_name_is_at_runtime():
    stub = {n for n in TOP if not n.startswith("_")}
    extra = sorted(n for n in stub if not hasattr(_core, n))
    assert not extra, f"in {STUB.name} but not in bitarcade._core: {extra}"


def test_all_matches():
    node = TOP.get("__all__")
    assert node is not None, "the stub has no __all__"
    assert sorted(ast.literal_eval(node.value)) == sorted(_core.__all__)


def test_stub_kinds_match_runtime():
    for name, node in TOP.items():
        if name.startswith("_"):
            continue
        value = getattr(_core, name)
        if isinstance(node, ast.ClassDef):
            assert isinstance(value, type), name
        elif isinstance(node, ast.FunctionDef):
            assert callable(value) and not isinstance(value, type), name
        else:
            assert not callable(value), name


def test_constant_types():
    node = TOP["DIRS_2048"]
    assert isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) == "str"
    assert isinstance(_core.DIRS_2048, str)


@pytest.mark.parametrize("name", CLASSES)
def test_class_members_match(name):
    cls = getattr(_core, name)
    stub = {n: v for n, v in _members(TOP[name]).items() if _public(n)}
    runtime = {n: _runtime_kind(v) for n, v in vars(cls).items() if not n.startswith("_") and n not in IGNORED}

    stub_plain = {n: k for n, (k, _) in stub.items() if n not in CONSTRUCTORS}
    assert sorted(set(runtime) - set(stub_plain)) == [], f"{name}: at runtime, not in the stub"
    assert sorted(set(stub_plain) - set(runtime)) == [], f"{name}: in the stub, not at runtime"
    for n, kind in stub_plain.items():
        assert kind == runtime[n], f"{name}.{n}: {kind} in the stub, {runtime[n]} at runtime"

    # A pyo3 class with #[new] has a text signature; without one it cannot be constructed.
    has_new = getattr(cls, "__text_signature__", None) is not None
    assert has_new == bool(CONSTRUCTORS & set(stub)), f"{name}: constructor in stub vs runtime"


@pytest.mark.parametrize("name", CLASSES)
def test_stub_dunders_exist(name):
    cls = getattr(_core, name)
    for n in _members(TOP[name]):
        if n.startswith("__") and n not in CONSTRUCTORS:
            assert n in vars(cls), f"{name}.{n}: in the stub, not defined by the class"


def _signature_cases():
    cases = []
    for name in FUNCTIONS:
        cases.append((name, None, getattr(_core, name), TOP[name], False))
    for cname in CLASSES:
        cls = getattr(_core, cname)
        for mname, (kind, node) in _members(TOP[cname]).items():
            if kind not in ("method", "staticmethod", "classmethod"):
                continue
            if mname in CONSTRUCTORS:
                runtime = cls  # pyo3 puts the #[new] signature on the class
            else:
                runtime = getattr(cls, mname, None)
            cases.append((cname, mname, runtime, node, kind != "staticmethod"))
    return cases


@pytest.mark.parametrize(
    "owner,member,runtime,node,bound",
    _signature_cases(),
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_parameter_names_match(owner, member, runtime, node, bound):
    sig = getattr(runtime, "__text_signature__", None)
    if sig is None:
        pytest.skip("no __text_signature__ at runtime")
    where = f"{owner}.{member}" if member else owner
    assert _stub_params(node, bound) == _runtime_params(sig), f"{where}: stub vs {sig}"


def test_every_runtime_signature_was_checked():
    """Every public function and method with a text signature has its stub counterpart (so the
    parametrized check above cannot silently skip one)."""
    checked = {(o, m) for o, m, *_ in _signature_cases()}
    for name in dir(_core):
        if name.startswith("_"):
            continue
        value = getattr(_core, name)
        if isinstance(value, type):
            for m, v in vars(value).items():
                if (not m.startswith("_") or m == "__copy__" or m == "__deepcopy__") and getattr(
                    v, "__text_signature__", None
                ) is not None:
                    assert (name, m) in checked, f"{name}.{m}"
            if getattr(value, "__text_signature__", None) is not None:
                assert any(o == name and m in CONSTRUCTORS for o, m in checked), f"{name}()"
        elif callable(value) and getattr(value, "__text_signature__", None) is not None:
            assert (name, None) in checked, name


def test_docstrings_follow_the_runtime():
    """Each stub docstring is the Rust doc comment on one line, as pyo3 exposes it at runtime."""
    for name, node in TOP.items():
        if name.startswith("_") or not isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            continue
        value = getattr(_core, name)
        items = [(name, value, node)]
        if isinstance(node, ast.ClassDef):
            for m, (_, mnode) in _members(node).items():
                if not m.startswith("_"):
                    raw = vars(value)[m]
                    items.append((f"{name}.{m}", getattr(value, m) if isinstance(raw, staticmethod) else raw, mnode))
        for where, obj, n in items:
            doc = " ".join((obj.__doc__ or "").split())
            stub_doc = ast.get_docstring(n)
            assert stub_doc is not None, f"{where}: no docstring in the stub"
            assert "\n" not in stub_doc, f"{where}: docstring is not one line"
            if doc:
                assert stub_doc == doc, f"{where}: stub {stub_doc!r} != runtime {doc!r}"
