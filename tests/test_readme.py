"""The README names what a fresh machine needs to run the whole suite."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_names_every_debian_package_ci_installs():
    ci = (ROOT / ".ci" / "run").read_text()
    installed = set(re.findall(r"need_apt\+=\(([\w.+-]+)\)", ci))
    assert {
        "chromium", "gettext", "npm", "fonts-noto-cjk", "fonts-thai-tlwg", "fonts-noto-color-emoji"
    } <= installed  # fmt: skip
    readme = (ROOT / "README.md").read_text()
    # One package at a time, only the missing ones: one `apt-get install` of them all
    # installs nothing when one conflicts (npm, where nodejs already ships it).
    assert not re.search(r"^apt-get install (?:-y )?\S+ \S+", readme, re.M)
    looped = re.search(r"^for package in (.+); do$", readme, re.M).group(1).split()
    apart = re.findall(r"^command -v \S+ >/dev/null \|\| apt-get install -y (\S+)", readme, re.M)
    for package in installed:
        assert f"| `{package}` |" in readme, f"the README's package table lacks {package}"
        assert package in looped + apart, f"the README's install lines lack {package}"
