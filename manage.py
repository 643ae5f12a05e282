#!/usr/bin/env python
"""Django's command-line utility for tierscope."""

import os
import sys


def main() -> None:
    from config.dotenv import load_dotenv_file

    load_dotenv_file()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
