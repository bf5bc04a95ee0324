"""pytest's doctest settings and test module names, read the way pytest finds them."""

from __future__ import annotations

from crg_review.pytest_settings import DoctestSettings, doctest_settings, python_files_setting, registered_plugins


def reader(files: dict[str, str]):  # type: ignore[no-untyped-def]
    return lambda name: files[name].encode() if name in files else None


def test_no_settings_mean_pytest_defaults() -> None:
    assert doctest_settings(reader({})) == DoctestSettings(False, ("test*.txt",), (), configured=False)


def test_setup_cfg_addopts_over_several_lines_with_quoted_globs() -> None:
    cfg = "[tool:pytest]\ntestpaths = tests docs\naddopts =\n\t--cov=x\n\t--doctest-glob='*.rst'\n\t--doctest-modules\n"
    assert doctest_settings(reader({"setup.cfg": cfg})) == DoctestSettings(True, ("*.rst",), ("tests", "docs"), True)


def test_the_first_file_with_a_section_wins() -> None:
    files = {
        "pytest.ini": "[pytest]\naddopts = --doctest-glob *.md --doctest-glob=*.txt\n",
        "setup.cfg": "[tool:pytest]\naddopts = --doctest-modules\n",
        "tox.ini": "[tox]\nenvlist = py\n",
    }
    assert doctest_settings(reader(files)) == DoctestSettings(False, ("*.md", "*.txt"), (), True)
    del files["pytest.ini"]  # tox.ini has no [pytest] section: setup.cfg's
    assert doctest_settings(reader(files)).modules


def test_a_root_conftest_collecting_doctest_modules_counts_as_doctest_modules_for_the_project() -> None:
    # babel's conftest.py: `pytest_collect_file` returns `DoctestModule.from_parent(parent, path=file_path)`
    hook = (
        "from _pytest.doctest import DoctestModule\n\n\ndef pytest_collect_file(file_path, parent):\n"
        "    if file_path.suffix == '.py':\n        return DoctestModule.from_parent(parent, path=file_path)\n"
    )
    settings = doctest_settings(reader({"conftest.py": hook}))
    assert settings.conftest_modules and not settings.modules
    other = hook.replace("DoctestModule", "YamlFile")  # a hook collecting something else
    assert not doctest_settings(reader({"conftest.py": other})).conftest_modules
    unused = "from _pytest.doctest import DoctestModule\n"  # no hook
    assert not doctest_settings(reader({"conftest.py": unused})).conftest_modules


def test_pyproject_ini_options_and_pytest_9_table() -> None:
    old = '[tool.pytest.ini_options]\naddopts = "--doctest-modules -q"\ntestpaths = ["src/"]\n'
    assert doctest_settings(reader({"pyproject.toml": old})) == DoctestSettings(True, ("test*.txt",), ("src",), True)
    new = '[tool.pytest]\naddopts = ["--doctest-glob=*.rst"]\n'
    assert doctest_settings(reader({"pyproject.toml": new})) == DoctestSettings(False, ("*.rst",), (), True)


def test_malformed_settings_count_as_none() -> None:
    assert doctest_settings(reader({"pyproject.toml": "[tool.pytest\n"})) == DoctestSettings()
    assert doctest_settings(reader({"setup.cfg": "no section header\n"})) == DoctestSettings()


def test_the_plugins_a_project_registers_in_each_packaging_file_and_its_root_conftest() -> None:
    assert registered_plugins(reader({})) == set()
    inline = '[project.entry-points]\npytest11 = {typeguard = "typeguard._pytest_plugin"}\n\n[dependency-groups]\nx = ["y"]\n'
    assert registered_plugins(reader({"pyproject.toml": inline})) == {"typeguard._pytest_plugin"}
    table = '[project.entry-points.pytest11]\nmine = "pkg.plugin"\nother = "pkg.more:hooks"\n\n[tool.x]\ny = "z"\n'
    assert registered_plugins(reader({"pyproject.toml": table})) == {"pkg.plugin", "pkg.more"}
    cfg = "[options.entry_points]\npytest11 =\n    mine = pkg.plugin\nconsole_scripts =\n    x = pkg.cli:main\n"
    assert "pkg.plugin" in registered_plugins(reader({"setup.cfg": cfg}))
    setup = 'setup(entry_points={"pytest11": ["mine = pkg.plugin"], "console_scripts": ["x = pkg.cli:main"]})\n'
    assert registered_plugins(reader({"setup.py": setup})) == {"pkg.plugin"}
    conftest = 'pytest_plugins = [\n    "pkg.fixtures",\n    "pkg.more",\n]\n'
    assert registered_plugins(reader({"conftest.py": conftest})) == {"pkg.fixtures", "pkg.more"}


def test_python_files_from_each_kind_of_settings_file() -> None:
    assert python_files_setting(reader({})) is None
    assert python_files_setting(reader({"pytest.ini": "[pytest]\naddopts = -q\n"})) is None  # pytest's default
    ini = "[tool:pytest]\npython_files =\n    check_*.py\n    *_tests.py\n"
    assert python_files_setting(reader({"setup.cfg": ini})) == ("check_*.py", "*_tests.py")
    listed = '[tool.pytest.ini_options]\npython_files = ["tests.py", "test_*.py", "*_tests.py"]\n'
    assert python_files_setting(reader({"pyproject.toml": listed})) == ("tests.py", "test_*.py", "*_tests.py")
    spaced = '[tool.pytest.ini_options]\npython_files = "Test*.py examples/*.py"\n'
    assert python_files_setting(reader({"pyproject.toml": spaced})) == ("Test*.py", "examples/*.py")


def test_testpaths_are_folders_of_the_repository_and_may_be_globs() -> None:
    # docopt-ng's `testpaths = ["./tests"]`; a `.` among them is the root: a plain run collects everywhere
    docopt = '[tool.pytest.ini_options]\ntestpaths = ["./tests"]\n'
    settings = doctest_settings(reader({"pyproject.toml": docopt}))
    assert settings.testpaths == ("tests",)
    assert settings.collects_from("tests/test_docopt.py")
    assert not settings.collects_from("bench/test_speed.py")
    assert doctest_settings(reader({"pytest.ini": "[pytest]\ntestpaths = . tests\n"})).testpaths == ()
    globbed = doctest_settings(reader({"pytest.ini": "[pytest]\ntestpaths = src/*/tests\n"}))
    assert globbed.collects_from("src/pkg/tests/test_x.py")
    assert not globbed.collects_from("src/pkg/test_x.py")


def test_consider_namespace_packages_is_read_from_ini_and_toml_files() -> None:
    ini = "[pytest]\naddopts = --doctest-modules\nconsider_namespace_packages = true\n"
    assert doctest_settings(reader({"pytest.ini": ini})).namespace_packages
    assert not doctest_settings(reader({"pytest.ini": ini.replace("true", "false")})).namespace_packages
    toml = "[tool.pytest.ini_options]\nconsider_namespace_packages = true\n"
    assert doctest_settings(reader({"pyproject.toml": toml})).namespace_packages
    assert not doctest_settings(reader({"pyproject.toml": "[tool.pytest.ini_options]\naddopts = '-q'\n"})).namespace_packages
