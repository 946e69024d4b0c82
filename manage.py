#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
    from django.core.management import execute_from_command_line

    from cuatrola_site.env import ImproperlyConfiguredEnv

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfiguredEnv as error:
        sys.stderr.write(f"Configuration error: {error}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
