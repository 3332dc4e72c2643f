"""Root conftest: loads the scenario fixture plugin and keeps the progress output compact."""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.scenario_plugin"]


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    # Hundreds of fixture files would each print a line of their own at the default verbosity: print
    # the results as one run of progress characters instead (`-v` still lists every test). Header,
    # failures and the closing summary are unchanged; `-q` is not needed, and with `addopts = -q` a
    # further `-q` on the command line would hide the summary line.
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and config.get_verbosity(config.VERBOSITY_TEST_CASES) == 0:
        reporter.showfspath = False
