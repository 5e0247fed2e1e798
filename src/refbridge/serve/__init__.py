"""``refbridge serve``: Better BibTeX's cite-as-you-write and JSON-RPC endpoints answered from
refbridge's own libraries (no Zotero), and a small local app on the same server.

``library`` the records served, by citation key; ``cayw`` the citation formats of a pick;
``jsonrpc`` the JSON-RPC methods; ``displayoptions`` Better BibTeX's display options of an
export; ``collections`` the library's collections (a Zotero database's, JabRef's groups,
those made during the run); ``zoterodb`` a Zotero database's collections; ``autoexport`` collections kept written to files; ``picks`` the
picks that wait for the picker page; ``guard`` who may ask (loopback ``Host``, same-site
``Origin``, the run's token); ``app`` the local app's API; ``pages`` the picker's and the
app's pages; ``state`` what is kept between runs; ``server`` the HTTP server. This package
must never listen on anything but the loopback address, nor write a file but those
auto-exports name (never a library it serves) and its state file.
"""
