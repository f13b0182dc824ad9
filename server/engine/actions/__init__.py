"""Actions: their kinds, the reasons they fail, and the standard verbs worlds build on."""
