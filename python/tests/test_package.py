"""The installed package: where it comes from, what it exports, numpy only on demand."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import fairmines
from conftest import REPO_ROOT
from fairmines import _history, _reports


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT / "python" / "tests",  # not python/, whose fairmines/ has no extension module
        timeout=120,
    )


def test_the_installed_package_is_tested() -> None:
    package = Path(fairmines.__file__).parent
    assert "site-packages" in package.parts, package
    assert (package / "py.typed").is_file() and (package / "_native.pyi").is_file()
    native = fairmines._native.__file__
    assert native is not None and native.endswith(".abi3.so"), native


def test_the_package_exports_the_extensions_names_then_the_pythons() -> None:
    # __init__.py writes down only the names of the report classes and of verify_history/audit
    # (tests/test_stub.py checks the stub's list against the module's).
    native = fairmines._native
    assert fairmines.__all__ == native.__all__ + _reports.__all__ + _history.__all__
    public = {name for name in dir(native) if not name.startswith("_")} | {"__version__"}
    assert public == set(native.__all__)
    for module in (native, _reports, _history):
        assert all(getattr(fairmines, name) is getattr(module, name) for name in module.__all__)
    # Shown and pickled as fairmines.<name>, like the extension's classes.
    python = [getattr(module, name) for module in (_reports, _history) for name in module.__all__]
    assert all(obj.__module__ == "fairmines" for obj in python)


def test_everything_has_a_docstring() -> None:
    for name in fairmines.__all__:
        obj = getattr(fairmines, name)
        if name != "__version__":
            assert inspect.getdoc(obj), name
    classes = [getattr(fairmines, name) for name in fairmines.__all__ if isinstance(getattr(fairmines, name), type)]
    for cls in (c for c in classes if not issubclass(c, Exception)):
        for attr, value in vars(cls).items():
            if not attr.startswith("_"):
                assert inspect.getdoc(value), f"{cls.__name__}.{attr}"
    assert inspect.signature(fairmines.verify).parameters["positions"].default is None


def test_version_is_the_distribution_version() -> None:
    from importlib.metadata import version

    assert fairmines.__version__ == version("fairmines")


def test_importing_does_not_import_numpy() -> None:
    result = run(
        """
        import sys
        import fairmines
        assert fairmines.mine_positions("s", "c", 1, 3)
        assert "numpy" not in sys.modules, "numpy was imported"
        """
    )
    assert result.returncode == 0, result.stderr


def test_without_numpy_only_the_batch_fails_with_a_clear_import_error() -> None:
    result = run(
        """
        import sys
        sys.modules["numpy"] = None  # as if numpy were not installed
        import fairmines
        assert fairmines.mine_positions("s", "c", 1, 3) == list(fairmines.verify("s", "c", 1, 3).positions)
        try:
            fairmines.mine_positions_batch("s", "c", range(3), 3)
        except ImportError as err:
            print(err)
        else:
            raise SystemExit("no ImportError")
        """
    )
    assert result.returncode == 0, result.stderr
    assert "mine_positions_batch needs numpy" in result.stdout
    assert "pip install numpy" in result.stdout


def test_the_typing_usage_file_runs() -> None:
    import typing_usage

    typing_usage.main()
