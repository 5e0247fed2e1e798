"""Mutations of real files: hypothesis strategies that damage a seed the way files get damaged.

A mutation is a short list of edits (cut a span, duplicate a span, insert a token, overwrite a
byte, swap two lines, repeat a token thousands of times, change the line endings or the
encoding), each given by numbers that hypothesis shrinks, so a failure shrinks to a small edit of
the seed. The tokens are the syntax of every format refbridge reads (BibTeX, JSON, XML with
entities, the tagged formats, YAML, CSV; repeated, they nest deeply) plus the characters that
break parsers (NUL, BOM, lone surrogates in UTF-8, CR).
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

#: syntax characters and keywords of the formats, and bytes that break text handling
TOKENS: tuple[bytes, ...] = (
    b"{", b"}", b"@", b'"', b"#", b",", b"=", b"(", b")", b"\\", b"%", b"$", b"~", b"^",
    b"\n", b"\r", b"\r\n", b"\t", b" ", b"\x00", b"\xef\xbb\xbf", b"\xff\xfe", b"\xed\xa0\x80",
    b"\xe9", b"\xc3", b"\x1a",
    b"@article{", b"@string{x = ", b"@comment{", b"@preamble{", b"author = ", b" and ",
    b"\\'", b"\\\"{o}", b"\\url{", b"\\verb|", b"{\\", b"}}}}",
    b"TY  - ", b"ER  - ", b"AU  - ", b"PY  - ", b"DA  - ", b"SP  - ", b"TY  - JOUR\n",
    b"[", b"]", b":", b"null", b"true", b"1e999", b"-0", b'"date-parts"', b'"id"', b'"type"',
    b'"author"', b"[[", b"]]", b"NaN",
    b"<", b">", b"&", b"&amp;", b"<![CDATA[", b"]]>", b"<!DOCTYPE x [<!ENTITY e 'x'>]>",
    b"&e;", b"<rdf:RDF", b"</rdf:RDF>", b'rdf:resource="', b"xmlns:",
    b"<?xml version=\"1.0\"?>", b"<!ENTITY x SYSTEM \"file:///etc/passwd\">", b"&#0;",
    b"&#x110000;", b"&lt;", b"<a>", b"</a>", b"<i>", b"<sup>", b"<math>", b' xmlns="',
    b"<record>", b"<mods>", b"<b:Source>", b"<PubmedArticle>", b"<entry>", b"<style>",
    b"%0 ", b"%A ", b"%D ", b"%T ", b"PMID- ", b"FAU - ", b"DP  - ", b"PT J\n", b"AU ", b"ER\n",
    b"EF\n", b"   ", b"TY  - JOUR\r\nER  - \r\n",
    b"- ", b": ", b"---\n", b"&a ", b"*a", b"!!python/object:os.system", b"? ", b"|\n",
    b'","', b'""', b",,,,",
    b"arXiv2026", b"cs.DB\xe2\x86\x97", b"Publications and source records attributed to ",
    b"99999999999999999999", b"0000", b"-1", b"\xe2\x80\xae", b"\xf0\x9f\x98\x80",
)

EDITS = ("cut", "duplicate", "insert", "overwrite", "swap-lines", "repeat", "truncate")


def _apply(data: bytes, edit: str, a: int, b: int, token: bytes) -> bytes:
    size = len(data)
    if size == 0:
        return token if edit in ("insert", "repeat") else data
    i, j = sorted((a % (size + 1), b % (size + 1)))
    if edit == "cut":
        return data[:i] + data[j:]
    if edit == "duplicate":
        return data[:j] + data[i:j] + data[j:]
    if edit == "insert":
        return data[:i] + token + data[i:]
    if edit == "overwrite":
        return data[:i] + bytes([b % 256]) + data[i + 1:]
    if edit == "repeat":
        return data[:i] + token * (1 + b % 5000) + data[i:]
    if edit == "truncate":
        return data[:i]
    lines = data.split(b"\n")  # swap-lines
    x, y = a % len(lines), b % len(lines)
    lines[x], lines[y] = lines[y], lines[x]
    return b"\n".join(lines)


def _recode(data: bytes, how: str) -> bytes:
    """The seed with other line endings or in another encoding (when it can be)."""
    if how == "crlf":
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if how == "cr":
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")
    if how == "keep":
        return data
    try:
        text = data.decode("utf-8")
        return text.encode(how)
    except (UnicodeDecodeError, UnicodeEncodeError):
        return data


@st.composite
def mutated(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """One of ``seeds`` with one to six edits, maybe re-encoded."""
    data = draw(st.sampled_from(seeds))
    edits = draw(st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 1 << 20),
                                    st.integers(0, 1 << 20), st.sampled_from(TOKENS)),
                          min_size=1, max_size=6))
    for edit in edits:
        data = _apply(data, *edit)
    how = draw(st.sampled_from(("keep", "keep", "keep", "crlf", "cr", "utf-8-sig", "utf-16",
                                "cp1252", "latin-1")))
    return _recode(data, how)


def windows(text: bytes, separator: bytes, size: int) -> list[bytes]:
    """``text`` cut at ``separator`` into pieces of ``size`` records (mutating a whole large
    real file per example would be slow; its pieces cover it)."""
    parts = text.split(separator)
    head, entries = parts[0], parts[1:]
    return [head + separator + separator.join(entries[i:i + size])
            for i in range(0, len(entries), size)] or [text]
