"""Settings for a daphne of the Sentry test: the site's own (Sentry is
started by them from SENTRY_DSN), with the URLconf of tests/test_operations
that adds a view which raises."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "tests.test_operations"
