"""Static files under hashed names, compressed once at collectstatic, and
served by daphne itself (ServeStatic, in the middleware)."""

from servestatic.middleware import ServeStaticMiddleware
from servestatic.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):
    # The board's ES modules import each other by relative path
    # (`from "./rules.js"`): rewritten to the hashed names too, so a module
    # never loads a neighbour from an older deploy.
    support_js_module_import_aggregation = True


class StaticFilesMiddleware(ServeStaticMiddleware):
    # A hashed name never changes content: a year, HTTP's customary longest
    # lifetime (ServeStatic's own is ten).
    FOREVER = 60 * 60 * 24 * 365
