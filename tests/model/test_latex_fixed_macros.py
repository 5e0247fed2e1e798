"""The decoder's table of commands that stand for fixed text is what pylatexenc says: the
table (``refbridge.latex.fixed_macros``) is written from pylatexenc, and read instead of it so
that a command starts without building pylatexenc's databases."""

from __future__ import annotations

import subprocess
import sys

from refbridge.latex.decode import decode_latex
from refbridge.latex.fixed_macros import FIXED_MACROS
from refbridge.latex.pylatexenc_tables import fixed_macros
from refbridge.latex.symbols import fixed_macro_text
from refbridge.richtext import plain


def test_the_table_is_what_the_installed_pylatexenc_says() -> None:
    assert FIXED_MACROS == fixed_macros()


def test_a_symbol_pylatexenc_knows_is_decoded_from_the_table() -> None:
    assert fixed_macro_text("AA") == "Å"
    assert fixed_macro_text("textasciitilde") == "~"


def test_a_command_with_arguments_is_no_fixed_text() -> None:
    assert fixed_macro_text("textbf") is None


def test_an_unknown_command_is_no_fixed_text_and_stays_as_written() -> None:
    assert fixed_macro_text("flash") is None
    assert plain(decode_latex(r"a \flash attack")) == r"a \flash attack"


def test_today_is_no_fixed_text_and_stays_as_written() -> None:
    # pylatexenc replaces it by the day it runs: a record must not take the day it was converted
    assert fixed_macro_text("today") is None
    assert plain(decode_latex(r"Retrieved on \today.")) == r"Retrieved on \today."


def test_decoding_an_unknown_command_does_not_load_pylatexenc() -> None:
    program = ("import sys; from refbridge.latex.decode import decode_latex; "
               r"decode_latex('the \\flash of \\AA ngstr\\\"om'); "
               "print(sorted(m for m in sys.modules if m.startswith('pylatexenc')))")
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            check=True).stdout
    assert loaded == "[]\n"
