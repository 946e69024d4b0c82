"""The game of Cuatrola as a library, as python-chess is chess's: the rules engine
(`cuatrola.engine`: cards, rule sets, a hand, a match, what one seat may see) and
the computer players (`cuatrola.bots`: easy, medium, hard). Pure Python: no Django,
no I/O, no clock, no global randomness; it imports nothing of the site (an
import-linter contract keeps it so). The site's apps use it (games plays it at its
tables, the coach judges with it), and offline practice ships it to the browser.
"""
