"""Settings for `manage.py collect` run by test_collect_command_hung: small limits, the test's database."""

from config.settings.test import *  # noqa: F401,F403

TIERSCOPE = {  # noqa: F405
    **TIERSCOPE,  # noqa: F405
    "ORACLE_CONNECT_TIMEOUT_S": 1,
    "COLLECT_MAX_RETRIES": 1,
}
