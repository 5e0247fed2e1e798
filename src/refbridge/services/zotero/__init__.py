"""Zotero's two services, asked as every web service is: the desktop program on this computer
(its connector server and, from Zotero 7, its local API, both on 127.0.0.1:23119) and
zotero.org's Web API v3. One module each:

- ``client``: HTTP to either service through ``services.retrying`` (the policy every service
  shares), with the Web API's ``Backoff`` and its limit of requests at once;
- ``library``: the reads of one library (its collections, its items' versions, what changed
  and what was deleted since a version, items by key, groups), as the local API and the Web
  API answer them;
- ``webapi``: the writes on zotero.org (items in batches, collections);
- ``connector``: saving items through the desktop's connector;
- ``errors``: what goes wrong, in words.

The service is asked with plain values (the base address, the library's kind and id, a
collection's key); which library or collection a command means, a copy of a library, and what
a push or pull does are the Zotero bridge's (``refbridge.zotero_bridge``), which asks here. A
module here must never import the bridge, print, or turn items into records.
"""
