"""What a player reads: an engine view turned into one report value, then rendered
(plain text, HTML, the map picture) from the templates."""
