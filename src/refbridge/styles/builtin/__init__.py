"""refbridge's own style modules, shipped with the package (the repository's ``styles/``
folder documents them). Each submodule is a style module: it defines ``STYLES``."""
