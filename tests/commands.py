"""What a management command prints, for the tests of the commands."""

from __future__ import annotations

import io

from django.core.management import call_command


def command_output(name: str, *args: str) -> str:
    """What ``manage.py <name> <args>`` wrote to its standard output."""
    out = io.StringIO()
    call_command(name, *args, stdout=out)
    return out.getvalue()
