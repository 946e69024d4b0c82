"""The README names what a fresh machine needs to run the whole suite."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_names_every_debian_package_ci_installs():
    ci = (ROOT / ".ci" / "run").read_text()
    installed = set(re.findall(r"need_apt\+=\(([\w.+-]+)\)", ci))
    assert {"chromium", "gettext", "npm", "fonts-noto-cjk", "fonts-thai-tlwg"} <= installed
    readme = (ROOT / "README.md").read_text()
    install_line = re.search(r"^apt-get install (.+)$", readme, re.M).group(1).split()
    for package in installed:
        assert f"| `{package}` |" in readme, f"the README's package table lacks {package}"
        assert package in install_line, f"the README's apt-get line lacks {package}"
