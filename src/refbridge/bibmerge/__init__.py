"""Three-way merge of .bib libraries entry by entry, as git's merge driver
(``refbridge merge-driver``): ``units`` cuts a file into blocks, ``sequence`` follows an entry
whose key was renamed (``sameness.keys.bib_identity``), ``entry`` merges one entry field by field into a layout, ``sequence``
merges the files' blocks in order, ``lines`` merges a JabRef setting line by line,
``csljson`` merges a CSL-JSON file item by item, ``records`` a file cut into records of
fields (RIS: ``ris``; Hayagriva YAML: ``hayagriva``) record by record and field by field,
``driver`` is git's side of it (files, exit status, the fallback to git's line merge) and
``install`` writes the repository's configuration. Nothing here may lose what one side wrote: what cannot be merged is marked as
a conflict.
"""
