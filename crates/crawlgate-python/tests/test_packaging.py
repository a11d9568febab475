"""The package as users install it: the wheel scripts/test-python.sh built
(manylinux2014, abi3, stripped, with the licences), the sdist installed
from an empty folder, the extras, and the sizes docs/python.md states.

These tests run against the installed wheel with no Rust toolchain on PATH.
"""

from __future__ import annotations

import email.parser
import hashlib
import importlib.metadata
import json
import pathlib
import re
import shutil
import struct
import subprocess
import tarfile
import zipfile

import pytest

import crawlgate_robots
from conftest import REPO, environment_path

DIST = "crawlgate-robots"
DOCS = REPO / "docs" / "python.md"


@pytest.fixture(scope="module")
def wheel() -> pathlib.Path:
    return environment_path("CRAWLGATE_WHEEL", "the wheel maturin built")


@pytest.fixture(scope="module")
def sdist() -> pathlib.Path:
    return environment_path("CRAWLGATE_SDIST", "the sdist maturin built")


def extension_member(archive: zipfile.ZipFile) -> str:
    (name,) = [n for n in archive.namelist() if re.fullmatch(r"crawlgate_robots/_crawlgate\.[\w.-]*so", n)]
    return name


def elf_sections(data: bytes) -> list[str]:
    """The section names of a 64-bit little-endian ELF file."""
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, "not a 64-bit little-endian ELF file"
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(index: int) -> tuple[int, int, int]:
        name, _type, _flags, _addr, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + index * shentsize)
        return name, offset, size

    _, names_at, names_size = header(shstrndx)
    names = data[names_at : names_at + names_size]
    out = []
    for index in range(shnum):
        name = header(index)[0]
        out.append(names[name : names.index(b"\0", name)].decode())
    return out


def test_the_wheel_is_manylinux2014_abi3_for_cpython_39(wheel) -> None:
    version = crawlgate_robots.__version__
    name, found_version, python, abi, platforms = wheel.name.removesuffix(".whl").split("-")
    assert (name, found_version, python, abi) == ("crawlgate_robots", version, "cp39", "abi3")
    assert set(platforms.split(".")) == {"manylinux2014_x86_64", "manylinux_2_17_x86_64"}
    # auditwheel reads the symbol versions the extension needs from glibc.
    report = environment_path("CRAWLGATE_AUDITWHEEL", "the output of `auditwheel show` on the wheel").read_text()
    assert 'is consistent with the following platform tag:\n"manylinux_2_17_x86_64"' in re.sub(r"\s*\n\s*", "\n", report), report
    with zipfile.ZipFile(wheel) as archive:
        metadata = email.parser.Parser().parsestr(archive.read(f"crawlgate_robots-{version}.dist-info/METADATA").decode())
        tags = archive.read(f"crawlgate_robots-{version}.dist-info/WHEEL").decode()
    assert metadata["Name"] == DIST and metadata["Requires-Python"] == ">=3.9"
    assert "Tag: cp39-abi3-manylinux_2_17_x86_64" in tags and "Tag: cp39-abi3-manylinux2014_x86_64" in tags


def test_the_wheel_is_stripped_and_carries_the_licences(wheel) -> None:
    version = crawlgate_robots.__version__
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        extension = archive.read(extension_member(archive))
        for licence in ("LICENSE-MIT", "LICENSE-APACHE"):
            member = f"crawlgate_robots-{version}.dist-info/licenses/{licence}"
            assert member in names, names
            assert archive.read(member) == (REPO / licence).read_bytes()
        metadata = archive.read(f"crawlgate_robots-{version}.dist-info/METADATA").decode()
    assert "License-Expression: MIT OR Apache-2.0" in metadata
    sections = elf_sections(extension)
    assert ".dynsym" in sections and ".text" in sections
    assert [s for s in sections if s == ".symtab" or s.startswith(".debug")] == [], sections


def test_the_tests_run_on_the_installed_wheel_without_rust(wheel) -> None:
    assert shutil.which("cargo") is None and shutil.which("rustc") is None, "the Rust toolchain is on PATH"
    installed = pathlib.Path(crawlgate_robots._crawlgate.__file__)
    assert "site-packages" in installed.parts
    with zipfile.ZipFile(wheel) as archive:
        built = archive.read(extension_member(archive))
    assert hashlib.sha256(installed.read_bytes()).digest() == hashlib.sha256(built).digest()
    assert importlib.metadata.version(DIST) == crawlgate_robots.__version__


def test_the_sizes_docs_state(wheel) -> None:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"the wheel is ([\d.]+) MB \(the extension module ([\d.]+) MB unpacked\)", text, re.IGNORECASE)
    assert found, "docs/python.md states no wheel size"
    with zipfile.ZipFile(wheel) as archive:
        extension = archive.getinfo(extension_member(archive)).file_size
    for stated, actual in ((float(found.group(1)), wheel.stat().st_size), (float(found.group(2)), extension)):
        # Within 15%: the figures are rounded and the code moves on.
        assert abs(stated * 1e6 - actual) <= 0.15 * actual, f"docs say {stated} MB, the file has {actual / 1e6:.1f} MB"


def test_the_extras_name_what_they_need() -> None:
    requires = importlib.metadata.requires(DIST) or []
    extras: dict[str, dict[str, str]] = {}
    for requirement in requires:
        found = re.fullmatch(r"([\w.-]+)\s*([^;]*?)\s*;\s*extra\s*==\s*['\"](\w+)['\"]", requirement)
        assert found, f"a requirement outside the extras: {requirement}"
        extras.setdefault(found.group(3), {})[found.group(1).lower()] = found.group(2)
    assert set(extras) == {"arrow", "spark", "polars", "duckdb", "scrapy"}
    for extra in ("arrow", "spark", "polars", "duckdb"):
        assert "pyarrow" in extras[extra], extra
    assert "polars" in extras["polars"] and "duckdb" in extras["duckdb"] and "scrapy" in extras["scrapy"]
    # mapInArrow refuses to run below PySpark's minimum pandas and pyarrow:
    # the extra asks for at least those.
    import pyspark.sql.pandas.utils as spark_utils

    source = pathlib.Path(spark_utils.__file__).read_text()
    for package in ("pandas", "pyarrow"):
        minimum = re.search(rf'minimum_{package}_version = "([\d.]+)"', source)
        assert minimum, f"PySpark names no minimum {package} version"
        lower = re.search(r">=\s*([\d.]+)", extras["spark"][package])
        assert lower, extras["spark"]
        # Padded: "2.2" is "2.2.0".
        as_tuple = lambda v: tuple(int(p) for p in (v.split(".") + ["0", "0"])[:3])  # noqa: E731
        assert as_tuple(lower.group(1)) >= as_tuple(minimum.group(1)), (package, lower.group(1), minimum.group(1))


def test_the_sdist_installs_without_the_repository(sdist, corpus) -> None:
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        pkg_info = archive.extractfile(f"{names[0].split('/')[0]}/PKG-INFO")
        assert pkg_info is not None
        metadata = email.parser.Parser().parsestr(pkg_info.read().decode())
    assert metadata["Name"] == DIST
    assert any(n.endswith("/LICENSE-MIT") for n in names) and any(n.endswith("/LICENSE-APACHE") for n in names)
    # The workspace crates the extension needs travel with it.
    for crate in ("crawlgate", "crawlgate-fetch", "crawlgate-lint", "crawlgate-survey"):
        assert any(re.search(rf"/{crate}/Cargo\.toml$", n) for n in names), crate

    # scripts/test-python.sh installed it with pip from an empty folder.
    python = environment_path("CRAWLGATE_SDIST_PYTHON", "the Python of the virtual environment the sdist was installed into")
    files = corpus[:50]
    script = (
        "import json, sys, crawlgate_robots as c\n"
        "files = json.load(sys.stdin)\n"
        "print(json.dumps([c.__file__, c.__version__, "
        "[c.RobotsTxt(b.encode('latin-1')).is_allowed('/search', 'Googlebot') for b in files]]))\n"
    )
    done = subprocess.run(
        [str(python), "-c", script],
        input=json.dumps([body.decode("latin-1") for _, body in files]),
        capture_output=True, text=True, cwd="/", timeout=120,
    )
    assert done.returncode == 0, f"the sdist's package does not import: {done.stderr[-2000:]}"
    where, version, answers = json.loads(done.stdout)
    assert pathlib.Path(where).is_relative_to(python.parent.parent), where
    assert version == crawlgate_robots.__version__
    assert answers == [crawlgate_robots.RobotsTxt(body).is_allowed("/search", "Googlebot") for _, body in files]


def test_the_readme_example_runs(wheel) -> None:
    # The README is the project's page on PyPI (the wheel's METADATA
    # carries it): its example runs against the installed package.
    version = crawlgate_robots.__version__
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"crawlgate_robots-{version}.dist-info/METADATA").decode()
    readme = (REPO / "crates" / "crawlgate-python" / "README.md").read_text(encoding="utf-8")
    assert readme.strip() in metadata
    (example,) = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert "import crawlgate_robots" in example
    exec(compile(example, "README.md", "exec"), {})
