"""Django's makemessages, also finding the game words that games/words/catalogue.py marks
with `N_(text)` and `NC_(context, text)` (a pure module: no Django gettext there).
How Django documents extending it: a command of the same name with more
`xgettext_options`."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=N_",
        "--keyword=NC_:1c,2",
    ]
