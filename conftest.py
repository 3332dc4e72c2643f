"""Root conftest: loads the scenario fixture plugin for every test run."""

pytest_plugins = ["tests.scenario_plugin"]
