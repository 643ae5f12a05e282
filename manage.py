#!/usr/bin/env python
"""Django's command-line utility for tierscope."""

import os
import sys


def main() -> None:
    from config.dotenv import load_dotenv_file

    load_dotenv_file()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    from django.core.management import execute_from_command_line
    from django.db import InterfaceError, OperationalError

    try:
        execute_from_command_line(sys.argv)
    except (OperationalError, InterfaceError) as exc:
        # The database is away (or refused us): one line naming it, not a traceback; exit 1 as CommandError does.
        from django.db import connection

        where = f"{connection.settings_dict.get('HOST') or 'local socket'}:{connection.settings_dict.get('PORT') or 5432}"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        sys.stderr.write(f"{' '.join(sys.argv[1:2]) or 'manage.py'}: the database at {where} "
                         f"({connection.settings_dict.get('NAME')}) did not answer: {first}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
