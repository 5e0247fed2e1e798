"""The command line's table of commands: every command is loaded from its family's module
only when it is asked for, and ``refbridge --help`` lists them all."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click
import pytest
from support import run_cli

from refbridge.cli import COMMANDS


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_table_names_the_command_of_that_name(name: str) -> None:
    module, attribute = COMMANDS[name]
    command = getattr(importlib.import_module(f"refbridge.cli.{module}"), attribute)
    assert isinstance(command, click.Command) and command.name == name


def test_help_lists_every_command_in_order() -> None:
    status, out, _ = run_cli("--help")
    listed = [line.split()[0] for line in out.split("Commands:\n", 1)[1].splitlines()
              if line.startswith("  ")]
    assert (status, listed) == (0, sorted(COMMANDS))


def _cli_modules_loaded_by(*args: str) -> set[str]:
    script = ("import sys\nfrom refbridge.cli import main\n"
              f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
              "sys.stderr.write(' '.join(m for m in sys.modules if m.startswith('refbridge.')))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    return set(result.stderr.split())


def test_a_command_loads_its_familys_module_and_no_other() -> None:
    loaded = _cli_modules_loaded_by("formats")
    assert {m for m in loaded if m.startswith("refbridge.cli.")} == {
        "refbridge.cli.convert", "refbridge.cli.enrichment", "refbridge.cli.options",
        "refbridge.cli.reporting"}


def test_the_version_loads_no_command() -> None:
    assert _cli_modules_loaded_by("--version") == {"refbridge.cli", "refbridge.errors",
                                                   "refbridge.version"}
