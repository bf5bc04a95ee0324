"""What a repository's pytest settings say about doctests: whether ``--doctest-modules`` makes the
docstring examples of every collected module tests, which text files ``--doctest-glob`` makes tests
(pytest's default: ``test*.txt``), and the ``testpaths`` a plain ``pytest`` run collects from; which file names
are test modules (``python_files``: :func:`python_files_setting`); and which of its modules the project loads
into pytest as plugins (:func:`registered_plugins`).

pytest reads its settings from the first of ``pytest.ini``, ``.pytest.ini``, ``pyproject.toml``
(``[tool.pytest.ini_options]``, or pytest 9's ``[tool.pytest]``), ``tox.ini`` (``[pytest]``) and
``setup.cfg`` (``[tool:pytest]``) at the root that has its section; so does this module.
"""

from __future__ import annotations

import configparser
import fnmatch
import posixpath
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace

from .config import loads_toml

__all__ = ["DoctestSettings", "doctest_settings", "python_files_setting", "registered_plugins"]

#: where a project declares its entry points (the pytest plugins it registers: ``pytest11``)
PACKAGING_FILES = ("pyproject.toml", "setup.cfg", "setup.py")

#: pytest's doctest glob when none is given
DEFAULT_GLOB = "test*.txt"
#: a ``testpaths`` entry that is a glob pattern (pytest 7 and later expand them)
_GLOB = re.compile(r"[*?[]")


@dataclass(frozen=True)
class DoctestSettings:
    modules: bool = False  # --doctest-modules
    globs: tuple[str, ...] = (DEFAULT_GLOB,)  # --doctest-glob (file name patterns)
    testpaths: tuple[str, ...] = ()  # where a plain run collects (empty: the root)
    configured: bool = False  # a settings file has pytest's section (the repository uses pytest)
    # the root conftest.py's `pytest_collect_file` makes a DoctestModule of Python files (babel's, for the files of
    # its package): the docstring examples of the project's modules run as with --doctest-modules
    conftest_modules: bool = False
    # `consider_namespace_packages = true`: pytest names a module of a package inside namespace folders (no
    # `__init__.py`) by its full import name, `jaraco.text` for jaraco/text/__init__.py, not `text`
    namespace_packages: bool = False

    def collects_from(self, path: str) -> bool:
        """Whether a plain ``pytest`` run collects from ``path`` (it is below ``testpaths``, or none is set)."""
        return not self.testpaths or any(under_testpath(path, p) for p in self.testpaths)


def under_testpath(path: str, testpath: str) -> bool:
    """Whether ``path`` lies below the ``testpaths`` entry ``testpath`` (a folder, or a glob pattern of folders)."""
    return (
        path == testpath
        or path.startswith(testpath + "/")
        or (_GLOB.search(testpath) is not None and fnmatch.fnmatchcase(path, testpath + "/*"))
    )


#: the files pytest reads its settings from, first found with its section wins (name, ini section)
SETTINGS_FILES = (
    ("pytest.ini", "pytest"),
    (".pytest.ini", "pytest"),
    ("pyproject.toml", ""),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)


def doctest_settings(read: Callable[[str], bytes | None]) -> DoctestSettings:
    """The doctest settings of the repository whose root files ``read`` returns (None: no such file).
    Unreadable or malformed settings count as none (pytest would stop on them anyway)."""
    options = _options(read)
    settings = _settings(options[0], options[1], options[3]) if options is not None else DoctestSettings()
    conftest = (read("conftest.py") or b"").decode("utf-8", "replace")
    if re.search(r"^def pytest_collect_file\b", conftest, re.MULTILINE) and re.search(r"\bDoctestModule\b", conftest):
        settings = replace(settings, conftest_modules=True)
    return settings


def python_files_setting(read: Callable[[str], bytes | None]) -> tuple[str, ...] | None:
    """pytest's ``python_files`` (the names of the test modules it collects: ``check_*.py``, ``*_tests.py``), or
    None when the settings give none (pytest's default, ``test_*.py`` and ``*_test.py``, then holds)."""
    options = _options(read)
    return tuple(options[2]) if options is not None and options[2] else None


def _options(read: Callable[[str], bytes | None]) -> tuple[list[str], list[str], list[str], bool] | None:
    """(addopts, testpaths, python_files, consider_namespace_packages) of the first settings file with pytest's section."""
    for name, section in SETTINGS_FILES:
        data = read(name)
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        options = _toml_options(text) if name == "pyproject.toml" else _ini_options(text, section)
        if options is not None:
            return options
    return None


def _ini_options(text: str, section: str) -> tuple[list[str], list[str], list[str], bool] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not parser.has_section(section):
        return None
    items = parser[section]
    return (
        _split(items.get("addopts", "")),
        items.get("testpaths", "").split(),
        items.get("python_files", "").split(),
        _true(items.get("consider_namespace_packages", "")),
    )


def _toml_options(text: str) -> tuple[list[str], list[str], list[str], bool] | None:
    if "pytest" not in text:  # no table of pytest's (every spelling of it names pytest): nothing to parse
        return None
    try:
        data = loads_toml(text)
    except ValueError:
        return None
    pytest = data.get("tool", {}).get("pytest")
    if not isinstance(pytest, dict):
        return None
    table = pytest.get("ini_options", pytest)  # pytest 8's table, else pytest 9's own
    if not isinstance(table, dict):
        return None

    def words(value: object) -> list[str]:
        if isinstance(value, str):
            return _split(value)
        return [str(v) for v in value] if isinstance(value, list) else []

    return (
        words(table.get("addopts", "")),
        [str(p) for p in words(table.get("testpaths", []))],
        [str(p) for p in words(table.get("python_files", []))],
        _true(table.get("consider_namespace_packages", False)),
    )


def _true(value: object) -> bool:
    """An ini or TOML boolean as pytest reads one (``true``, ``1``, ``yes``, ``on``; TOML's own true)."""
    return value is True or (isinstance(value, str) and value.strip().lower() in ("true", "1", "yes", "on"))


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:  # an unbalanced quote
        return text.split()


def _settings(addopts: list[str], testpaths: list[str], namespace_packages: bool) -> DoctestSettings:
    globs: list[str] = []
    for i, word in enumerate(addopts):
        if word == "--doctest-glob" and i + 1 < len(addopts):
            globs.append(addopts[i + 1])
        elif word.startswith("--doctest-glob="):
            globs.append(word.partition("=")[2])
    return DoctestSettings(
        modules="--doctest-modules" in addopts,
        globs=tuple(globs) or (DEFAULT_GLOB,),
        testpaths=_testpaths(testpaths),
        configured=True,
        namespace_packages=namespace_packages,
    )


def _testpaths(given: list[str]) -> tuple[str, ...]:
    """The ``testpaths`` as repository-relative folders (``./tests/`` is ``tests``; a glob pattern stays one); none
    when one of them is the root (``.``): a plain run then collects everywhere."""
    paths = [posixpath.normpath(p.strip()) for p in given if p.strip()]
    return () if "." in paths else tuple(dict.fromkeys(p.strip("/") for p in paths))


def registered_plugins(read: Callable[[str], bytes | None]) -> set[str]:
    """The modules the project loads into pytest as plugins, by dotted name: its ``pytest11`` entry points
    (pyproject.toml, setup.cfg, setup.py) and the ``pytest_plugins`` of its root conftest.py."""
    found: set[str] = set()
    for name in PACKAGING_FILES:
        text = (read(name) or b"").decode("utf-8", "replace")
        for m in re.finditer(r"\bpytest11\b", text):
            rest = text[m.end() : m.end() + 800].lstrip("]\"' \t")  # past the key: `[...pytest11]`, `"pytest11"`
            section = re.split(r"\n\s*\[|\]", rest)[0]  # up to the next table or the end of the list
            found.update(re.findall(r"=[ \t]*[\"']?[ \t]*([A-Za-z_][\w.]*)", section))
    conftest = (read("conftest.py") or b"").decode("utf-8", "replace")
    for m in re.finditer(r"^pytest_plugins\s*=\s*([^\n]*(?:\n[ \t]+[^\n]*)*)", conftest, re.MULTILINE):
        found.update(re.findall(r"[\"']([A-Za-z_][\w.]*)[\"']", m.group(1)))
    return found
