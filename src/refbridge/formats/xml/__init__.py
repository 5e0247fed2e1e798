"""XML formats (MODS, EndNote XML, PubMed XML, Word's Sources.xml) and their safe XML input."""
