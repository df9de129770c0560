#!/usr/bin/env python
import sys


def main() -> None:
    from django.core.management import execute_from_command_line

    from sitewide.startup import settings_or_exit

    settings_or_exit()
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
