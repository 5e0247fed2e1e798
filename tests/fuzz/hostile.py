"""Hostile record text: values that would become commands or markup if a writer let them
through, and addresses that must never become links. Shared by the fuzzers and the
tests/test_hostile_* tests."""

from __future__ import annotations

#: text that is markup or commands in LaTeX, HTML, Markdown, RTF, RIS or BibTeX syntax
HOSTILE_TEXTS: tuple[str, ...] = (
    r"}\input{/etc/passwd}{",
    r"\write18{rm -rf ~}",
    r"\immediate\write18{touch pwned}",
    r"\def\x{boom}\x",
    r"\end{document}",
    r"\par",
    "<script>alert(1)</script>",
    '" onmouseover="alert(1)',
    "' onclick='alert(1)",
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    "![img](http://evil.example/x.png)",
    "**bold** _em_ `code` # heading",
    r"{\rtf1\ansi evil}",
    r"\b bold\b0 \par",
    "100% of $x^2$ & #1 _ ~ ^",
    "unbalanced { brace",
    "unbalanced } brace",
    "@article{evil, title = {x}}",
    "ER  - \nTY  - JOUR",
    "]]><evil/>",
    "&lt;not markup&gt; &amp;",
    "a\u202eb",
)

#: addresses that must never become links (only http, https and DOIs may)
HOSTILE_URLS: tuple[str, ...] = (
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
)

#: http(s) addresses that try to break out of an attribute or a LaTeX argument
BREAKOUT_URLS: tuple[str, ...] = (
    'https://example.com/"onmouseover="alert(1)',
    "https://example.com/<script>alert(1)</script>",
    r"https://example.com/}\input{/etc/passwd}",
    "https://example.com/a%20b#frag",
)

HOSTILE_DOIS: tuple[str, ...] = (
    '10.1000/x"><script>alert(1)</script>',
    r"10.1000/}\input{x}",
)
