"""What pylatexenc's tables say a command without arguments stands for, computed from
pylatexenc itself, and the source of ``refbridge.latex.fixed_macros`` written from it.

The decoder reads the written table instead of building pylatexenc's context databases, which
cost about 100M instructions (25 ms) at every start of a command that meets one unknown macro.
``python -m refbridge.tools.regenerate`` writes the table anew for another pylatexenc;
``tests/model/test_latex_fixed_macros.py`` proves the table is what the installed pylatexenc says. This module must never be imported by the decoder.
"""

from __future__ import annotations

from typing import Any


def _databases() -> tuple[Any, Any]:
    from pylatexenc.latex2text import LatexNodes2Text
    from pylatexenc.latex2text import get_default_latex_context_db as converter_db
    from pylatexenc.latexwalker import get_default_latex_context_db as walker_db

    converter = LatexNodes2Text(latex_context=converter_db(), math_mode="text",
                                strict_latex_spaces=True)
    return converter, walker_db()


def _macro_names(database: Any) -> set[str]:
    return {name for category in database.categories() for name in database.d[category]["macros"]}


def pylatexenc_macro_text(name: str, converter: Any, walker: Any) -> str | None:
    """The text ``\\name`` stands for in pylatexenc, when it is a command without arguments
    whose replacement is plain text; else None."""
    walker_spec = walker.get_macro_spec(name)
    if walker_spec is not None and getattr(walker_spec.args_parser, "argspec", None) != "":
        return None
    database = converter.latex_context
    spec = database.get_macro_spec(name)
    if spec is database.get_macro_spec("\x00unknown"):
        return None
    replacement = spec.simplify_repl
    if not isinstance(replacement, str) or "%" in replacement:  # a callable or a format
        return None
    text: str = converter.latex_to_text(f"\\{name}{{}}", latex_context=walker)
    return text


#: Commands pylatexenc replaces by text that is not fixed: ``\\today`` is the day it is run.
NOT_FIXED: frozenset[str] = frozenset({"today"})


def fixed_macros() -> dict[str, str]:
    """Every command pylatexenc knows that stands for fixed text, with that text."""
    converter, walker = _databases()
    names = sorted((_macro_names(converter.latex_context) | _macro_names(walker)) - NOT_FIXED)
    found = {name: pylatexenc_macro_text(name, converter, walker) for name in names}
    return {name: text for name, text in found.items() if text is not None}


def table_source() -> str:
    """The source of ``refbridge.latex.fixed_macros``."""
    import pylatexenc

    docstring = ('"""The commands without arguments that stand for fixed text, and that text, '
                 f'as pylatexenc\n{pylatexenc.__version__} says (written by '
                 '``python -m refbridge.tools.regenerate``;\ndo not edit). This module '
                 'must never hold anything but the table."""')
    lines = [docstring, "", "FIXED_MACROS: dict[str, str] = {"]
    lines += [f"    {name!r}: {text!r}," for name, text in fixed_macros().items()]
    lines.append("}")
    return "\n".join(lines) + "\n"

